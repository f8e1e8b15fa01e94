import Frames

/// Brings the work-resolution alpha up to colour resolution (nearest neighbour) and softens its
/// edges with a separable box of the feather radius. A box on a hard edge keeps the 50 % line
/// where the edge was, so feathering never grows or shrinks the subject. Sums run in 16-bit
/// lanes, normalised by a multiply-high, so the loops stay wide on SSE2 and NEON alike.
final class AlphaFeather {
    static let maximumRadius = 64
    static let lanes = 16
    typealias Lanes16 = SIMD16<UInt16>

    let workSize: FrameSize
    let alphaSize: FrameSize
    private let columnMap: UnsafeMutablePointer<Int32>
    private let rowMap: UnsafeMutablePointer<Int32>
    private let identityColumns: Bool
    /// Horizontally upscaled and blurred work rows, alpha width each.
    private let horizontal: UnsafeMutablePointer<UInt8>
    private let paddedRow: UnsafeMutablePointer<UInt8>
    private let columnSums: UnsafeMutablePointer<UInt16>
    private let paddedCapacity: Int
    private let sumCapacity: Int

    init(workSize: FrameSize, alphaSize: FrameSize) {
        self.workSize = workSize
        self.alphaSize = alphaSize
        columnMap = .allocate(capacity: alphaSize.width)
        rowMap = .allocate(capacity: alphaSize.height)
        for x in 0..<alphaSize.width {
            columnMap[x] = Int32(min(workSize.width - 1, (2 * x + 1) * workSize.width / (2 * alphaSize.width)))
        }
        for y in 0..<alphaSize.height {
            rowMap[y] = Int32(min(workSize.height - 1, (2 * y + 1) * workSize.height / (2 * alphaSize.height)))
        }
        identityColumns = workSize.width == alphaSize.width
        horizontal = .allocate(capacity: workSize.height * alphaSize.width + Self.lanes)
        horizontal.initialize(repeating: 0, count: workSize.height * alphaSize.width + Self.lanes)
        paddedCapacity = alphaSize.width + 2 * Self.maximumRadius + 2 * Self.lanes
        paddedRow = .allocate(capacity: paddedCapacity)
        paddedRow.initialize(repeating: 0, count: paddedCapacity)
        sumCapacity = alphaSize.width + Self.lanes
        columnSums = .allocate(capacity: sumCapacity)  // per 8-column chunk in the vertical pass
        columnSums.initialize(repeating: 0, count: sumCapacity)
    }

    deinit {
        columnMap.deallocate()
        rowMap.deallocate()
        horizontal.deallocate()
        paddedRow.deallocate()
        columnSums.deallocate()
    }

    /// `source` is packed work-size alpha; `alpha` an .alpha8 view of alphaSize.
    func run(source: UnsafePointer<UInt8>, radius requested: Int, into alpha: ImageView) {
        let radius = min(Self.maximumRadius, max(0, requested))
        let width = alphaSize.width
        if radius == 0 {
            for y in 0..<alphaSize.height {
                let from = source + Int(rowMap[y]) * workSize.width
                let to = alpha.row(y).assumingMemoryBound(to: UInt8.self)
                if identityColumns {
                    to.update(from: from, count: width)
                } else {
                    for x in 0..<width { to[x] = from[Int(columnMap[x])] }
                }
            }
            return
        }
        let taps = 2 * radius + 1
        // ceil(65536 / taps): the high half of sum * reciprocal is sum / taps, never above 255.
        let reciprocal = UInt16((65536 + taps - 1) / taps)
        for y in 0..<workSize.height {
            blurRow(source + y * workSize.width, radius: radius, reciprocal: reciprocal,
                    into: horizontal + y * width)
        }
        verticalPass(radius: radius, reciprocal: reciprocal, into: alpha)
    }

    /// The box of a constant stretch is the constant, so the row is copied and only the
    /// outputs within `radius` of a change of value are summed (a running sum over each stretch).
    @inline(never)
    private func blurRow(_ source: UnsafePointer<UInt8>, radius: Int, reciprocal: UInt16,
                         into output: UnsafeMutablePointer<UInt8>) {
        let width = alphaSize.width
        let body = paddedRow + radius
        if identityColumns {
            body.update(from: source, count: width)
        } else {
            for x in 0..<width { body[x] = source[Int(columnMap[x])] }
        }
        // Edge replication: a subject cut by the frame edge stays solid up to the edge.
        paddedRow.update(repeating: body[0], count: radius)
        (body + width).update(repeating: body[width - 1], count: radius + Self.lanes)
        output.update(from: body, count: width)
        let scale = Int(reciprocal)
        var sum = 0
        var sumAt = -2
        var x = 0
        while true {
            // Next change of value: body[change - 1] != body[change].
            let change = RunLabeller.runEnd(row: body, from: x, width: width, value: body[x])
            if change >= width { break }
            let first = max(sumAt + 1, change - radius)
            let last = min(width - 1, change + radius - 1)
            if first <= last {
                for q in first...last {
                    if sumAt == q - 1 {
                        sum += Int(body[q + radius]) - Int(body[q - radius - 1])
                    } else {
                        sum = 0
                        for k in (q - radius)...(q + radius) { sum += Int(body[k]) }
                    }
                    sumAt = q
                    output[q] = UInt8(truncatingIfNeeded: (sum * scale) >> 16)
                }
            }
            x = change
        }
    }

    /// Vertical box by 8-column chunks: a chunk whose rows in the window are all the same keeps
    /// its value; only chunks with a change inside the window are summed. Which chunks have one
    /// is kept as a count of differing neighbouring row pairs, updated as the window slides.
    @inline(never)
    private func verticalPass(radius: Int, reciprocal: UInt16, into alpha: ImageView) {
        let width = alphaSize.width
        let lastRow = alphaSize.height - 1
        let chunks = (width + 7) / 8
        let scale = Int(reciprocal)
        @inline(__always) func source(_ y: Int) -> UnsafeMutablePointer<UInt8> {
            horizontal + Int(rowMap[min(lastRow, max(0, y))]) * width
        }
        @inline(__always) func count(pair q: Int, _ delta: UInt16) {
            let a = UnsafeRawPointer(source(q))
            let b = UnsafeRawPointer(source(q + 1))
            if a == b { return }
            for c in 0..<chunks {
                if a.loadUnaligned(fromByteOffset: 8 * c, as: UInt64.self)
                    != b.loadUnaligned(fromByteOffset: 8 * c, as: UInt64.self) {
                    columnSums[c] &+= delta
                }
            }
        }
        columnSums.update(repeating: 0, count: chunks)
        for q in -radius..<radius { count(pair: q, 1) }
        for y in 0...lastRow {
            let out = alpha.row(y).assumingMemoryBound(to: UInt8.self)
            let centre = source(y)
            var c = 0
            while c < chunks {
                let x0 = 8 * c
                let x1 = min(width, x0 + 8)
                if columnSums[c] == 0 {
                    if x1 - x0 == 8 {
                        UnsafeMutableRawPointer(out + x0).storeBytes(
                            of: UnsafeRawPointer(centre + x0).loadUnaligned(as: UInt64.self), as: UInt64.self)
                    } else {
                        for x in x0..<x1 { out[x] = centre[x] }
                    }
                } else if x1 - x0 == 8 {
                    // Eight column sums in two words of four 16-bit lanes (even and odd bytes);
                    // a lane holds at most 255 * 129, so nothing carries between lanes.
                    let spread: UInt64 = 0x00FF_00FF_00FF_00FF
                    var even: UInt64 = 0
                    var odd: UInt64 = 0
                    for k in -radius...radius {
                        let word = UnsafeRawPointer(source(y + k) + x0).loadUnaligned(as: UInt64.self)
                        even &+= word & spread
                        odd &+= (word &>> 8) & spread
                    }
                    var packed: UInt64 = 0
                    for lane in 0..<4 {
                        let shift = UInt64(16 * lane)
                        let e = (Int((even &>> shift) & 0xFFFF) * scale) >> 16
                        let o = (Int((odd &>> shift) & 0xFFFF) * scale) >> 16
                        packed |= UInt64(e) << (shift) | UInt64(o) << (shift + 8)
                    }
                    UnsafeMutableRawPointer(out + x0).storeBytes(of: packed, as: UInt64.self)
                } else {
                    for x in x0..<x1 {
                        var sum = 0
                        for k in -radius...radius { sum += Int(source(y + k)[x]) }
                        out[x] = UInt8(truncatingIfNeeded: (sum * scale) >> 16)
                    }
                }
                c += 1
            }
            count(pair: y - radius, UInt16(0) &- 1)
            count(pair: y + radius, 1)
        }
    }

    @inline(__always)
    private static func storeNormalised(_ sum: Lanes16, _ scale: Lanes16, to out: UnsafeMutablePointer<UInt8>,
                                        limit: Int) {
        let wide = SIMD16<UInt32>(truncatingIfNeeded: sum) &* SIMD16<UInt32>(truncatingIfNeeded: scale)
        let value = SIMD16<UInt8>(truncatingIfNeeded: wide &>> 16)
        if limit >= Self.lanes {
            UnsafeMutableRawPointer(out).storeBytes(of: value, as: SIMD16<UInt8>.self)
        } else {
            for lane in 0..<limit { out[lane] = value[lane] }
        }
    }
}
