import Frames
import KernelIO

/// Brings the work-resolution alpha up to colour resolution (nearest neighbour) and softens its
/// edges with a separable box of the feather radius. A box on a hard edge keeps the 50 % line
/// where the edge was, so feathering never grows or shrinks the subject. Most of a matte is flat
/// (all subject or all backdrop), and a box of a flat stretch is the stretch itself: the
/// horizontal pass copies and sums only near changes of value; the vertical one sums every
/// column in lanes, which is cheaper than finding the few that change.
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
    private let columnSums: UnsafeMutablePointer<UInt16>
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
        let columnSumsSlot = layout.reserve(UInt16.self, count: sumCapacity)  // per column in the vertical pass
        memory = try AlignedBuffer(layout: layout)
        horizontal = memory.pointer(horizontalSlot)
        paddedRow = memory.pointer(paddedRowSlot)
        columnSums = memory.pointer(columnSumsSlot)
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
            blurRow(source + y * workSize.width, radius: radius, reciprocal: reciprocal,
                    into: horizontal + y * width)
        }
        verticalPass(radius: radius, reciprocal: reciprocal, into: alpha)
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

    /// Vertical box as per-column running sums, a whole row at a time: the entering row added
    /// and the leaving one taken away, then every column scaled. One loop over contiguous rows
    /// without exits, so 16-bit lanes (SSE, NEON): that costs less than finding the few columns
    /// that change (a chunk list per row pair), which kept the pass scalar. Where the window is
    /// flat the sum is v * taps, and (v * taps * reciprocal) >> 16 is v (see `run`), so flat
    /// stretches come out as they went in.
    @inline(never)
    private func verticalPass(radius: Int, reciprocal: UInt16, into alpha: ImageView) {
        let width = alphaSize.width
        let lastRow = alphaSize.height - 1
        @inline(__always) func source(_ y: Int) -> UnsafePointer<UInt8> {
            UnsafePointer(horizontal + Int(rowMap[min(lastRow, max(0, y))]) * width)
        }
        // At most 255 * 129 per column: 16 bits hold it.
        let sums = columnSums
        sums.update(repeating: 0, count: width)
        for k in -radius...radius { Self.add(source(k), into: sums, count: width) }
        for y in 0...lastRow {
            Self.scaleAndSlide(sums: sums, entering: source(y + radius + 1), leaving: source(y - radius),
                               reciprocal: reciprocal, into: alpha.row(y).assumingMemoryBound(to: UInt8.self),
                               count: width)
        }
    }

    @inline(__always)
    private static func add(_ row: UnsafePointer<UInt8>, into sums: UnsafeMutablePointer<UInt16>, count: Int) {
        for x in 0..<count { sums[x] &+= UInt16(row[x]) }
    }

    /// out = sums / taps (as `run` defines it), then the window moves down a row. (The last
    /// row's move reads the bottom row again and is not used.)
    @inline(__always)
    private static func scaleAndSlide(sums: UnsafeMutablePointer<UInt16>, entering: UnsafePointer<UInt8>,
                                      leaving: UnsafePointer<UInt8>, reciprocal: UInt16,
                                      into out: UnsafeMutablePointer<UInt8>, count: Int) {
        let scale = UInt32(reciprocal)
        for x in 0..<count {
            let sum = sums[x]
            out[x] = UInt8(truncatingIfNeeded: (UInt32(sum) &* scale) &>> 16)
            sums[x] = sum &+ UInt16(entering[x]) &- UInt16(leaving[x])
        }
    }
}
