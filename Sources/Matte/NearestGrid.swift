import Frames
import KernelIO

/// Nearest-neighbour resampling from one grid to another: for each target column and row, the
/// source column and row whose centre is nearest. Used wherever the matte changes resolution
/// (depth to work grid, work grid to colour), so every stage agrees on which source pixel a
/// target pixel shows. Filled at init and only read afterwards.
final class NearestGrid {
    let source: FrameSize
    let target: FrameSize
    /// Per target column / row, the source column / row.
    let columns: UnsafeMutablePointer<Int32>
    let rows: UnsafeMutablePointer<Int32>
    private let memory: AlignedBuffer

    init(from source: FrameSize, to target: FrameSize) throws(SystemError) {
        self.source = source
        self.target = target
        var layout = BufferLayout()
        let columnsSlot = layout.reserve(Int32.self, count: target.width)
        let rowsSlot = layout.reserve(Int32.self, count: target.height)
        memory = try AlignedBuffer(layout: layout)
        columns = memory.pointer(columnsSlot)
        rows = memory.pointer(rowsSlot)
        for x in 0..<target.width {
            columns[x] = Int32(min(source.width - 1, (2 * x + 1) * source.width / (2 * target.width)))
        }
        for y in 0..<target.height {
            rows[y] = Int32(min(source.height - 1, (2 * y + 1) * source.height / (2 * target.height)))
        }
    }
}
