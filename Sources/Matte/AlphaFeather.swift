import Frames
import KernelIO

/// Brings the work-resolution alpha up to colour resolution (nearest neighbour) and softens its
/// edges with a separable box of the feather radius. A box on a hard edge keeps the 50 % line
/// where the edge was, so feathering never grows or shrinks the subject. Most of a matte is flat
/// (all subject or all backdrop), and a box of a flat stretch is the stretch itself: the
/// horizontal pass copies and sums only near changes of value; the vertical one keeps column
/// sums in lanes and copies the row above where 16 columns' sums did not move.
final class AlphaFeather {
    static let maximumRadius = 64
    static let lanes = 16

    let workSize: FrameSize
    let alphaSize: FrameSize
    private let grid: NearestGrid
    private let columnMap: UnsafeMutablePointer<Int32>
    private let rowMap: UnsafeMutablePointer<Int32>
    private let identityColumns: Bool
    /// Horizontally upscaled and blurred work rows, alpha width each.
    private let horizontal: UnsafeMutablePointer<UInt8>
    private let paddedRow: UnsafeMutablePointer<UInt8>
    /// One row for `blurRowInLanes`, with `lanes` copies of the edge pixel either side.
    private let laneRow: UnsafeMutablePointer<UInt8>
    private let columnSums: UnsafeMutablePointer<UInt16>
    /// Per 16 columns, 1 where the vertical pass's last slide left the sums as they were.
    private let unchangedSums: UnsafeMutablePointer<UInt8>
    private let memory: AlignedBuffer
    private let paddedCapacity: Int
    private let sumCapacity: Int

    init(workSize: FrameSize, alphaSize: FrameSize) throws(SystemError) {
        self.workSize = workSize
        self.alphaSize = alphaSize
        grid = try NearestGrid(from: workSize, to: alphaSize)
        columnMap = grid.columns
        rowMap = grid.rows
        identityColumns = workSize.width == alphaSize.width
        paddedCapacity = alphaSize.width + Self.lanes
        sumCapacity = alphaSize.width + Self.lanes
        var layout = BufferLayout()
        let horizontalSlot = layout.reserve(UInt8.self, count: workSize.height * alphaSize.width + Self.lanes)
        let paddedRowSlot = layout.reserve(UInt8.self, count: paddedCapacity)
        let laneRowSlot = layout.reserve(UInt8.self, count: alphaSize.width + 2 * Self.lanes)
        let columnSumsSlot = layout.reserve(UInt16.self, count: sumCapacity)  // per column in the vertical pass
        let unchangedSumsSlot = layout.reserve(UInt8.self, count: alphaSize.width / 16 + 4)
        memory = try AlignedBuffer(layout: layout)
        horizontal = memory.pointer(horizontalSlot)
        paddedRow = memory.pointer(paddedRowSlot)
        laneRow = memory.pointer(laneRowSlot)
        columnSums = memory.pointer(columnSumsSlot)
        unchangedSums = memory.pointer(unchangedSumsSlot)
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
                    to.copyElements(from: from, count: width)
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
            if radius <= Self.laneRadius && width >= 64 {
                blurRowInLanes(source + y * workSize.width, radius: radius, reciprocal: reciprocal,
                               into: horizontal + y * width)
            } else {
                blurRow(source + y * workSize.width, radius: radius, reciprocal: reciprocal,
                        into: horizontal + y * width)
            }
        }
        verticalPass(radius: radius, reciprocal: reciprocal, into: alpha)
    }

    /// Widest radius `blurRowInLanes` takes: one load either side of 16 pixels covers their window.
    static let laneRadius = 8
    /// Pixels at either end of a row that the blocks whose windows leave it read: 64 + 2
    /// laneRadius at the end (a last block from width - 64 - laneRadius), 64 + laneRadius at the start.
    static let endSpan = 80

    /// `blurRow` for radius 1...laneRadius, 16 outputs at a time: 16 pixels whose window
    /// (radius either side) is one value are that value, two compares, 64 at a time where the
    /// window of all 64 is (five compares); the others are summed in 16-bit lanes from 2r + 1
    /// shifted loads. Finding each change of value and summing pixel by pixel after it was most of
    /// the feather: at a soft edge every pixel is a change. The same bytes as `blurRow`.
    @inline(never)
    private func blurRowInLanes(_ source: UnsafePointer<UInt8>, radius: Int, reciprocal: UInt16,
                                into output: UnsafeMutablePointer<UInt8>) {
        let width = alphaSize.width
        let margin = Self.lanes
        let body = laneRow + margin
        // Where the columns are the source's, only the first and last `endSpan` pixels are
        // copied next to the repeated edge pixels, for the groups whose window leaves the row;
        // the others read the source itself (the row's copy was a memmove call a row).
        let direct = identityColumns && width >= Self.endSpan
        if direct {
            let from = UnsafeRawPointer(source)
            let to = UnsafeMutableRawPointer(body)
            var k = 0
            while k < Self.endSpan {
                to.storeBytes(of: from.loadUnaligned(fromByteOffset: k, as: SIMD16<UInt8>.self), toByteOffset: k,
                              as: SIMD16<UInt8>.self)
                let end = width &- Self.endSpan &+ k
                to.storeBytes(of: from.loadUnaligned(fromByteOffset: end, as: SIMD16<UInt8>.self), toByteOffset: end,
                              as: SIMD16<UInt8>.self)
                k &+= 16
            }
        } else if identityColumns {
            body.copyElements(from: source, count: width)
        } else {
            for x in 0..<width { body[x] = source[Int(columnMap[x])] }
        }
        // Reads past either end repeat the edge pixel.
        (body - margin).update(repeating: body[0], count: margin)
        (body + width).update(repeating: body[width - 1], count: margin)
        let padded = UnsafeRawPointer(body)
        let inner = direct ? UnsafeRawPointer(source) : padded
        let out = UnsafeMutableRawPointer(output)
        let scale = SIMD4<UInt32>(repeating: UInt32(reciprocal))
        // (sum * reciprocal) >> 16 of eight 16-bit sums, in two halves of 32-bit lanes (bit casts
        // and masks: the SIMD width conversions stay out-of-line generic calls).
        @inline(__always) func divided(_ sum: SIMD8<UInt16>) -> SIMD8<UInt16> {
            let pairs = unsafeBitCast(sum, to: SIMD4<UInt32>.self)
            let low = ((pairs & 0xFFFF) &* scale) &>> 16
            let high = ((pairs &>> 16) &* scale) &>> 16
            return unsafeBitCast(low | (high &<< 16), to: SIMD8<UInt16>.self)
        }
        @inline(__always) func group(_ x: Int, _ raw: UnsafeRawPointer) {
            @inline(__always) func load(_ at: Int) -> SIMD16<UInt8> { raw.loadUnaligned(fromByteOffset: at, as: SIMD16<UInt8>.self) }
            let same = SIMD16<UInt8>(repeating: raw.load(fromByteOffset: x, as: UInt8.self))
            if ((load(x &- radius) ^ same) | (load(x &+ radius) ^ same)).isAllZero {
                out.storeBytes(of: same, toByteOffset: x, as: SIMD16<UInt8>.self)
                return
            }
            // Even and odd pixels summed apart, each byte in a 16-bit lane (at most 255 * 17).
            var even = SIMD8<UInt16>()
            var odd = SIMD8<UInt16>()
            var k = x &- radius
            let end = x &+ radius
            while k <= end {
                let pairs = unsafeBitCast(load(k), to: SIMD8<UInt16>.self)
                even &+= pairs & 0xFF
                odd &+= pairs &>> 8
                k &+= 1
            }
            let bytes = divided(even) | (divided(odd) &<< 8)
            out.storeBytes(of: unsafeBitCast(bytes, to: SIMD16<UInt8>.self), toByteOffset: x, as: SIMD16<UInt8>.self)
        }
        @inline(__always) func block(_ x: Int, _ raw: UnsafeRawPointer) {
            @inline(__always) func load(_ at: Int) -> SIMD16<UInt8> { raw.loadUnaligned(fromByteOffset: at, as: SIMD16<UInt8>.self) }
            let from = x &- radius
            let same = SIMD16<UInt8>(repeating: raw.load(fromByteOffset: x, as: UInt8.self))
            if ((load(from) ^ same) | (load(from &+ 16) ^ same) | (load(from &+ 32) ^ same)
                | (load(from &+ 48) ^ same) | (load(x &+ radius &+ 48) ^ same)).isAllZero {
                for k in stride(from: 0, to: 64, by: 16) { out.storeBytes(of: same, toByteOffset: x &+ k, as: SIMD16<UInt8>.self) }
            } else {
                group(x, raw)
                group(x &+ 16, raw)
                group(x &+ 32, raw)
                group(x &+ 48, raw)
            }
        }
        // The first 64 (whose windows leave the row on the left) and everything from the first
        // 64 whose windows leave it on the right read the padded copy, the blocks between the row.
        block(0, padded)
        var x = 64
        while x &+ 64 &+ radius <= width {
            block(x, inner)
            x &+= 64
        }
        while x &+ 64 <= width {
            block(x, padded)
            x &+= 64
        }
        while x &+ 16 <= width {
            group(x, padded)
            x &+= 16
        }
        // The last 16, overlapping the group before (the same outputs again).
        if x < width { group(width &- 16, padded) }
    }

    /// The box of a constant stretch is the constant, so the row is copied and only the
    /// outputs within `radius` of a change of value are summed (a running sum over each stretch).
    /// Reads past either end repeat the edge pixel: a subject cut by the frame edge stays solid.
    @inline(never)
    private func blurRow(_ source: UnsafePointer<UInt8>, radius: Int, reciprocal: UInt16,
                         into output: UnsafeMutablePointer<UInt8>) {
        let width = alphaSize.width
        let body: UnsafePointer<UInt8>
        if identityColumns {
            body = source
        } else {
            for x in 0..<width { paddedRow[x] = source[Int(columnMap[x])] }
            body = UnsafePointer(paddedRow)
        }
        output.copyElements(from: body, count: width)
        let lastColumn = width - 1
        @inline(__always) func at(_ k: Int) -> Int { Int(body[min(lastColumn, max(0, k))]) }
        let scale = Int(reciprocal)
        var sum = 0
        var sumAt = -2
        var x = 0
        while true {
            // Next change of value: body[change - 1] != body[change].
            let change = RunLabeller.runEnd(row: body, from: x, width: width, value: body[x])
            if change >= width { break }
            let first = max(0, sumAt + 1, change - radius)
            let last = min(lastColumn, change + radius - 1)
            if first <= last {
                for q in first...last {
                    if sumAt == q - 1 {
                        sum += at(q + radius) - at(q - radius - 1)
                    } else {
                        sum = 0
                        for k in (q - radius)...(q + radius) { sum += at(k) }
                    }
                    sumAt = q
                    output[q] = UInt8(truncatingIfNeeded: (sum * scale) >> 16)
                }
            }
            x = change
        }
    }

    /// Vertical box as per-column running sums, a row at a time: the entering row added and the
    /// leaving one taken away, then every column scaled, in 16-bit lanes (SSE, NEON) over 64
    /// columns at once; 64 columns whose sums the last slide did not change copy the row above
    /// instead (a finer chunk list per row pair kept the pass scalar). Where the window is flat the
    /// sum is v * taps, and (v * taps * reciprocal) >> 16 is v (see `run`), so flat stretches come
    /// out as they went in.
    @inline(never)
    private func verticalPass(radius: Int, reciprocal: UInt16, into alpha: ImageView) {
        let width = alphaSize.width
        let lastRow = alphaSize.height - 1
        @inline(__always) func source(_ y: Int) -> UnsafePointer<UInt8> {
            UnsafePointer(horizontal + Int(rowMap[min(lastRow, max(0, y))]) &* width)
        }
        // At most 255 * 129 per column: 16 bits hold it.
        let sums = columnSums
        sums.update(repeating: 0, count: width)
        for k in -radius...radius { Self.add(source(k), into: sums, count: width) }
        var previousOut: UnsafePointer<UInt8>?
        for y in 0...lastRow {
            let out = alpha.row(y).assumingMemoryBound(to: UInt8.self)
            Self.scaleAndSlide(sums: sums, entering: source(y &+ radius &+ 1), leaving: source(y &- radius),
                               reciprocal: reciprocal, into: out, previousOut: previousOut,
                               previousSame: unchangedSums, count: width)
            previousOut = UnsafePointer(out)
        }
    }

    @inline(__always)
    private static func add(_ row: UnsafePointer<UInt8>, into sums: UnsafeMutablePointer<UInt16>, count: Int) {
        for x in 0..<count { sums[x] &+= UInt16(row[x]) }
    }

    /// out = sums / taps (as `run` defines it), then the window moves down a row. (The last
    /// row's move reads the bottom row again and is not used.) Where the entering and leaving
    /// rows agree on 16 columns (most of the frame: rows only differ near the subject's outline)
    /// their sums stay, so this row's outputs there are the next row's: `previousOut`, the row
    /// written before, holds them once a row has been (nil for the first). 64 columns are tested
    /// at once first.
    @inline(__always)
    private static func scaleAndSlide(sums: UnsafeMutablePointer<UInt16>, entering: UnsafePointer<UInt8>,
                                      leaving: UnsafePointer<UInt8>, reciprocal: UInt16,
                                      into out: UnsafeMutablePointer<UInt8>, previousOut: UnsafePointer<UInt8>?,
                                      previousSame: UnsafeMutablePointer<UInt8>, count: Int) {
        let scale = UInt32(reciprocal)
        @inline(__always) func scaleAndSlide(_ from: Int, _ to: Int) {
            for x in from..<to {
                let sum = sums[x]
                out[x] = UInt8(truncatingIfNeeded: (UInt32(sum) &* scale) &>> 16)
                sums[x] = sum &+ UInt16(entering[x]) &- UInt16(leaving[x])
            }
        }
        let enteringBytes = UnsafeRawPointer(entering)
        let leavingBytes = UnsafeRawPointer(leaving)
        @inline(__always) func differ(_ at: Int) -> SIMD16<UInt8> {
            enteringBytes.loadUnaligned(fromByteOffset: at, as: SIMD16<UInt8>.self)
                ^ leavingBytes.loadUnaligned(fromByteOffset: at, as: SIMD16<UInt8>.self)
        }
        // 16 columns from x whose sums the previous row's slide left as they were: its outputs hold.
        @inline(__always) func copyAbove(_ x: Int, _ above: UnsafePointer<UInt8>) {
            UnsafeMutableRawPointer(out + x).storeBytes(of: UnsafeRawPointer(above + x).loadUnaligned(as: SIMD16<UInt8>.self),
                                                        as: SIMD16<UInt8>.self)
        }
        // The 16-column forms work on values loaded into locals and store them back: on the
        // pointers themselves the loops were vectorised behind run-time overlap checks of the four
        // buffers, which cost about as much as the arithmetic.
        let sumBytes = UnsafeMutableRawPointer(sums)
        let outBytes = UnsafeMutableRawPointer(out)
        @inline(__always) func scaled(_ s: SIMD16<UInt16>) -> SIMD16<UInt8> {
            var o = SIMD16<UInt8>()
            for c in 0..<16 { o[c] = UInt8(truncatingIfNeeded: (UInt32(s[c]) &* scale) &>> 16) }
            return o
        }
        @inline(__always) func slid(_ s: SIMD16<UInt16>, _ at: Int) -> SIMD16<UInt16> {
            let e = enteringBytes.loadUnaligned(fromByteOffset: at, as: SIMD16<UInt8>.self)
            let l = leavingBytes.loadUnaligned(fromByteOffset: at, as: SIMD16<UInt8>.self)
            var n = s
            for c in 0..<16 { n[c] = s[c] &+ UInt16(e[c]) &- UInt16(l[c]) }
            return n
        }
        @inline(__always) func sums16(_ at: Int) -> SIMD16<UInt16> {
            sumBytes.loadUnaligned(fromByteOffset: 2 &* at, as: SIMD16<UInt16>.self)
        }
        @inline(__always) func slide16(_ at: Int) {
            sumBytes.storeBytes(of: slid(sums16(at), at), toByteOffset: 2 &* at, as: SIMD16<UInt16>.self)
        }
        @inline(__always) func scale16(_ at: Int) {
            outBytes.storeBytes(of: scaled(sums16(at)), toByteOffset: at, as: SIMD16<UInt8>.self)
        }
        @inline(__always) func scaleAndSlide16(_ at: Int) {
            let s = sums16(at)
            outBytes.storeBytes(of: scaled(s), toByteOffset: at, as: SIMD16<UInt8>.self)
            sumBytes.storeBytes(of: slid(s, at), toByteOffset: 2 &* at, as: SIMD16<UInt16>.self)
        }
        var x = 0
        while x &+ 64 <= count {
            let d0 = differ(x), d1 = differ(x &+ 16), d2 = differ(x &+ 32), d3 = differ(x &+ 48)
            let group = x &>> 4
            // Four groups unchanged by the last slide and by this one: the row above, once.
            if let previousOut, UnsafeRawPointer(previousSame + group).loadUnaligned(as: UInt32.self) == 0x0101_0101
                && (d0 | d1 | d2 | d3).isAllZero {
                for k in 0..<4 { copyAbove(x &+ 16 &* k, previousOut) }
                x &+= 64
                continue
            }
            @inline(__always) func step(_ k: Int, _ d: SIMD16<UInt8>) {
                let at = x &+ 16 &* k
                let same = d.isAllZero
                if let previousOut, previousSame[group &+ k] != 0 {
                    copyAbove(at, previousOut)
                    if !same { slide16(at) }
                } else if same {
                    scale16(at)
                } else {
                    scaleAndSlide16(at)
                }
                previousSame[group &+ k] = same ? 1 : 0
            }
            step(0, d0)
            step(1, d1)
            step(2, d2)
            step(3, d3)
            x &+= 64
        }
        scaleAndSlide(x, count)
    }
}
