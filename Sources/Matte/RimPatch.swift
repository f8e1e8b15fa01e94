import Frames
import KernelIO

/// The decontaminated rim as a list of pixel writes, so only the rim's pixels are corrected
/// (a few percent of the frame). `view` lends them to readers (the compositor lays each row's into
/// its own copy of the row as it reads it); the entry layout is `PixelPatch`'s. No two entries
/// write the same byte: a YUYV pair's chroma is written by at most one of its two pixels
/// (RimDecontamination.entry).
///
/// Ownership: the entry memory is allocated once in `init` (room for every pixel of the frame,
/// the worst case of an all-partial matte), owned by `memory`; nothing here allocates after it.
/// Written by one user, the matte's thread; `view` is read between that thread's runs.
public struct RimPatch: ~Copyable {
    public let size: FrameSize
    private let places: UnsafeMutablePointer<UInt32>
    /// The new bytes, in the frame's own layout.
    private let values: UnsafeMutablePointer<UInt32>
    /// Per row, its first entry (`PixelPatch`'s index), written by the writer as each row starts
    /// and closed by `finish`; empty until the first run.
    private let rowStarts: UnsafeMutablePointer<Int32>
    private let memory: AlignedBuffer
    public private(set) var count = 0
    /// `workingCount` Int32s beside the entries for the decontamination's own working rows
    /// (RimLanes, the column memo): one allocation for the whole rim stage.
    let working: UnsafeMutablePointer<Int32>

    static let chromaFlag = PixelPatch.chromaFlag

    init(size: FrameSize, workingCount: Int = 0) throws(SystemError) {
        precondition(size.width <= 65536 && size.height <= 65536, "rim patch: frame too large")
        self.size = size
        var layout = BufferLayout()
        let placesSlot = layout.reserve(UInt32.self, count: max(1, size.pixelCount))
        let valuesSlot = layout.reserve(UInt32.self, count: max(1, size.pixelCount))
        let rowStartsSlot = layout.reserve(Int32.self, count: size.height + 1)
        let workingSlot = layout.reserve(Int32.self, count: max(1, workingCount))
        memory = try AlignedBuffer(layout: layout)
        rowStarts = memory.pointer(rowStartsSlot)
        rowStarts.initialize(repeating: 0, count: size.height + 1)
        places = memory.pointer(placesSlot)
        values = memory.pointer(valuesSlot)
        working = memory.pointer(workingSlot)
    }

    /// No entries: an empty writer finished, so the count and the row index say so alike.
    mutating func clear() {
        finish(startWriting())
    }

    /// Appends entries through the patch's memory directly. The patch is a stored property of
    /// its class owner, and every `append` through it was a dynamic exclusivity check (a third of
    /// the decontamination's time); the writer is a local value, and `finish` takes its count.
    struct Writer {
        fileprivate let places: UnsafeMutablePointer<UInt32>
        fileprivate let values: UnsafeMutablePointer<UInt32>
        fileprivate let rowStarts: UnsafeMutablePointer<Int32>
        fileprivate(set) var count = 0
        /// The row after the last one `startRow` was given.
        fileprivate var nextRow = 0

        /// Row `y`'s entries follow (rows in order, each at most once; a row not started gets
        /// none). One store a row: the index costs nothing per entry.
        @inline(__always)
        mutating func startRow(_ y: Int) {
            while nextRow <= y {
                rowStarts[nextRow] = Int32(truncatingIfNeeded: count)
                nextRow &+= 1
            }
        }

        @inline(__always)
        mutating func append(x: Int, y: Int, value: UInt32) {
            places[count] = UInt32(truncatingIfNeeded: y) << 16 | UInt32(truncatingIfNeeded: x)
            values[count] = value
            count &+= 1  // below the frame's pixel count
        }
    }

    /// A writer starting from an empty patch (the patch is cleared).
    mutating func startWriting() -> Writer {
        count = 0
        return Writer(places: places, values: values, rowStarts: rowStarts)
    }

    /// Takes the writer's count and closes the row index (`PixelPatch`'s) after its last row.
    mutating func finish(_ writer: Writer) {
        var writer = writer
        writer.startRow(size.height)
        count = writer.count
    }

    /// The entries, lent until the next run rewrites them (see `PixelPatch` on threads).
    var view: PixelPatch {
        PixelPatch(size: size, places: places, values: values, rowStarts: rowStarts)
    }

    /// Writes the corrected bytes into `frame`, a copy of the frame the patch was computed from
    /// (MatteEngine.decontaminate(into:)). The entries stay until the next run clears them.
    func write(into frame: ImageView) {
        view.write(into: frame)
    }
}
