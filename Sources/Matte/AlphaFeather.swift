import Frames
import KernelIO

/// Brings the work-resolution alpha up to colour resolution (nearest neighbour) and softens its
/// edges with a separable box of the feather radius. A box on a hard edge keeps the 50 % line
/// where the edge was, so feathering never grows or shrinks the subject. Most of a matte is flat
/// (all subject or all backdrop), and a box of a flat stretch is the stretch itself: both passes
/// copy, and sum only near changes of value, so the cost follows the length of the edges.
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
    /// Vertical pass: per row pair in the window (a ring of 2r+1), the count then the indices
    /// of the 8-column chunks where the two rows differ.
    private let pairChunks: UnsafeMutablePointer<Int32>
    private let touched: UnsafeMutablePointer<UInt16>
    /// Ring slot of pair q at index q + radius: the slots in a table, filled once per run,
    /// because a double modulo per pair per row was a sixth of the vertical pass.
    private let slotTable: UnsafeMutablePointer<Int32>
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
        let chunks = (alphaSize.width + 7) / 8
        var layout = BufferLayout()
        let horizontalSlot = layout.reserve(UInt8.self, count: workSize.height * alphaSize.width + Self.lanes)
        let paddedRowSlot = layout.reserve(UInt8.self, count: paddedCapacity)
        let columnSumsSlot = layout.reserve(UInt16.self, count: sumCapacity)  // per 8-column chunk in the vertical pass
        let pairChunksSlot = layout.reserve(Int32.self, count: (2 * Self.maximumRadius + 1) * (chunks + 1))
        let touchedSlot = layout.reserve(UInt16.self, count: chunks)
        let slotTableSlot = layout.reserve(Int32.self, count: alphaSize.height + 2 * Self.maximumRadius + 2)
        memory = try AlignedBuffer(layout: layout)
        horizontal = memory.pointer(horizontalSlot)
        paddedRow = memory.pointer(paddedRowSlot)
        columnSums = memory.pointer(columnSumsSlot)
        pairChunks = memory.pointer(pairChunksSlot)
        touched = memory.pointer(touchedSlot)
        slotTable = memory.pointer(slotTableSlot)
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
        output.update(from: body, count: width)
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

    /// Vertical box by 8-column chunks: a chunk whose rows in the window are all the same keeps
    /// its value; only chunks with a change inside the window are summed. Per chunk, a count of
    /// differing neighbouring row pairs in the window says which; each pair's differing chunks
    /// are listed once when it enters the window and taken back from the list when it leaves.
    @inline(never)
    private func verticalPass(radius: Int, reciprocal: UInt16, into alpha: ImageView) {
        let width = alphaSize.width
        let lastRow = alphaSize.height - 1
        let chunks = (width + 7) / 8
        let scale = Int(reciprocal)
        let ringRows = 2 * radius + 1
        @inline(__always) func source(_ y: Int) -> UnsafeMutablePointer<UInt8> {
            horizontal + Int(rowMap[min(lastRow, max(0, y))]) * width
        }
        // Pairs -radius ... lastRow + radius: slot (q mod ringRows), counted up without dividing.
        var next = ((-radius % ringRows) + ringRows) % ringRows
        for i in 0...(lastRow + 2 * radius) {
            slotTable[i] = Int32(next)
            next += 1
            if next == ringRows { next = 0 }
        }
        let slots = slotTable
        @inline(__always) func slotOf(_ q: Int) -> Int { Int(slots[q + radius]) }
        /// Lists the chunks where pair (q, q+1) differs into ring slot `slot` and counts them in.
        @inline(__always) func enter(pair q: Int) {
            let slot = slotOf(q)
            let list = pairChunks + slot * (chunks + 1)
            var n = 0
            let a = UnsafeRawPointer(source(q))
            let b = UnsafeRawPointer(source(q + 1))
            if a != b {
                for c in 0..<(width / 8) where a.loadUnaligned(fromByteOffset: 8 * c, as: UInt64.self)
                    != b.loadUnaligned(fromByteOffset: 8 * c, as: UInt64.self) {
                    list[1 + n] = Int32(c)
                    n += 1
                }
                if width % 8 != 0 {
                    let c = chunks - 1
                    for x in (8 * c)..<width where a.load(fromByteOffset: x, as: UInt8.self) != b.load(fromByteOffset: x, as: UInt8.self) {
                        list[1 + n] = Int32(c)
                        n += 1
                        break
                    }
                }
            }
            list[0] = Int32(n)
            for i in 0..<n { columnSums[Int(list[1 + i])] &+= 1 }
        }
        @inline(__always) func leave(pair q: Int) {
            let slot = slotOf(q)
            let list = pairChunks + slot * (chunks + 1)
            for i in 0..<Int(list[0]) { columnSums[Int(list[1 + i])] &-= 1 }
        }
        columnSums.update(repeating: 0, count: chunks)
        // Window of output row y: rows y-r...y+r, i.e. pairs y-r ..< y+r.
        for q in -radius..<radius { enter(pair: q) }
        for y in 0...lastRow {
            let out = alpha.row(y).assumingMemoryBound(to: UInt8.self)
            out.update(from: source(y), count: width)
            // Only the chunks some pair in the window lists can differ from the centre row.
            for q in (y - radius)..<(y + radius) {
                let slot = slotOf(q)
                let list = pairChunks + slot * (chunks + 1)
                for i in 0..<Int(list[0]) {
                    let c = Int(list[1 + i])
                    if columnSums[c] == 0 { continue }
                    blurChunk(c, row: y, radius: radius, scale: scale, into: out)
                    // Done for this row: a zero count stops the other pairs listing it again.
                    touched[c] = columnSums[c]
                    columnSums[c] = 0
                }
            }
            for q in (y - radius)..<(y + radius) {
                let slot = slotOf(q)
                let list = pairChunks + slot * (chunks + 1)
                for i in 0..<Int(list[0]) {
                    let c = Int(list[1 + i])
                    if touched[c] != 0 {
                        columnSums[c] = touched[c]
                        touched[c] = 0
                    }
                }
            }
            leave(pair: y - radius)
            enter(pair: y + radius)
        }
    }

    @inline(__always)
    private func blurChunk(_ c: Int, row y: Int, radius: Int, scale: Int, into out: UnsafeMutablePointer<UInt8>) {
        let width = alphaSize.width
        let lastRow = alphaSize.height - 1
        let x0 = 8 * c
        let x1 = min(width, x0 + 8)
        if x1 - x0 == 8 {
            // Eight column sums in 16-bit lanes (at most 255 * 129), scaled in 32-bit ones:
            // vector loads and adds (NEON on the board), the same quotients as the scalar tail.
            var sums = SIMD8<UInt16>(repeating: 0)
            for k in -radius...radius {
                let row = horizontal + Int(rowMap[min(lastRow, max(0, y + k))]) * width
                sums &+= SIMD8<UInt16>(truncatingIfNeeded: UnsafeRawPointer(row + x0).loadUnaligned(as: SIMD8<UInt8>.self))
            }
            let scaled = (SIMD8<UInt32>(truncatingIfNeeded: sums) &* UInt32(scale)) &>> 16
            UnsafeMutableRawPointer(out + x0).storeBytes(of: SIMD8<UInt8>(truncatingIfNeeded: scaled), as: SIMD8<UInt8>.self)
        } else {
            for x in x0..<x1 {
                var sum = 0
                for k in -radius...radius { sum += Int(horizontal[Int(rowMap[min(lastRow, max(0, y + k))]) * width + x]) }
                out[x] = UInt8(truncatingIfNeeded: (sum * scale) >> 16)
            }
        }
    }
}
