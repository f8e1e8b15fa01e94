import Frames
import KernelIO

/// The decontaminated rim as a list of pixel writes, so only the rim's pixels are corrected
/// (a few percent of the frame); `write(into:)` lays them into a copy of the frame.
///
/// Each entry is one pixel (row << 16 | column: no division to find it again) and its new bytes in the frame's own layout:
/// R G B (or B G R X) in the low three bytes; YUYV Y, Cb, Cr and, in the top byte, 1 when the
/// pixel also writes its pair's chroma; NV12 Y. No two entries write the same byte (a YUYV pair's
/// chroma is written by at most one of its two pixels, RimDecontamination.entry), so the order of
/// the writes does not matter.
///
/// Ownership: the entry memory is allocated once in `init` (room for every pixel of the frame,
/// the worst case of an all-partial matte), owned by `memory`; `write` allocates nothing. Not
/// thread-safe: one user, the matte's thread.
public struct RimPatch: ~Copyable {
    public let size: FrameSize
    private let places: UnsafeMutablePointer<UInt32>
    /// The new bytes, in the frame's own layout.
    private let values: UnsafeMutablePointer<UInt32>
    private let memory: AlignedBuffer
    public private(set) var count = 0
    /// `workingCount` Int32s beside the entries for the decontamination's own working rows
    /// (RimLanes, the column memo): one allocation for the whole rim stage.
    let working: UnsafeMutablePointer<Int32>

    static let chromaFlag: UInt32 = 1 << 24

    init(size: FrameSize, workingCount: Int = 0) throws(SystemError) {
        precondition(size.width <= 65536 && size.height <= 65536, "rim patch: frame too large")
        self.size = size
        var layout = BufferLayout()
        let placesSlot = layout.reserve(UInt32.self, count: max(1, size.pixelCount))
        let valuesSlot = layout.reserve(UInt32.self, count: max(1, size.pixelCount))
        let workingSlot = layout.reserve(Int32.self, count: max(1, workingCount))
        memory = try AlignedBuffer(layout: layout)
        places = memory.pointer(placesSlot)
        values = memory.pointer(valuesSlot)
        working = memory.pointer(workingSlot)
    }

    mutating func clear() {
        count = 0
    }

    /// Appends entries through the patch's memory directly. The patch is a stored property of
    /// its class owner, and every `append` through it was a dynamic exclusivity check (a third of
    /// the decontamination's time); the writer is a local value, and `finish` takes its count.
    struct Writer {
        fileprivate let places: UnsafeMutablePointer<UInt32>
        fileprivate let values: UnsafeMutablePointer<UInt32>
        fileprivate(set) var count = 0

        @inline(__always)
        mutating func append(x: Int, y: Int, value: UInt32) {
            places[count] = UInt32(truncatingIfNeeded: y) << 16 | UInt32(truncatingIfNeeded: x)
            values[count] = value
            count += 1
        }
    }

    /// A writer starting from an empty patch (the patch is cleared).
    mutating func startWriting() -> Writer {
        count = 0
        return Writer(places: places, values: values)
    }

    mutating func finish(_ writer: Writer) {
        count = writer.count
    }

    /// Writes the corrected bytes into `frame`, a copy of the frame the patch was computed from
    /// (MatteEngine.decontaminate(into:)). The entries stay until the next run clears them.
    func write(into frame: ImageView) {
        precondition(frame.size == size, "rim patch: written into another frame")
        let base = frame.base.assumingMemoryBound(to: UInt8.self)
        let stride = frame.bytesPerRow
        @inline(__always) func row(_ place: UInt32) -> UnsafeMutablePointer<UInt8> { base + Int(place >> 16) &* stride }
        switch frame.format {
        case .rgb24, .xrgb8888, .argb8888:
            let step = frame.format == .rgb24 ? 3 : 4
            for k in 0..<count {
                let place = places[k]
                let p = row(place) + step &* Int(place & 0xFFFF)
                let new = values[k]
                p[0] = UInt8(truncatingIfNeeded: new)
                p[1] = UInt8(truncatingIfNeeded: new >> 8)
                p[2] = UInt8(truncatingIfNeeded: new >> 16)
            }
        case .yuyv:
            for k in 0..<count {
                let place = places[k]
                let x = Int(place & 0xFFFF)
                let pixels = row(place)
                let new = values[k]
                pixels[x &<< 1] = UInt8(truncatingIfNeeded: new)
                if new & Self.chromaFlag != 0 {
                    let pair = pixels + ((x >> 1) &<< 2)
                    pair[1] = UInt8(truncatingIfNeeded: new >> 8)
                    pair[3] = UInt8(truncatingIfNeeded: new >> 16)
                }
            }
        case .nv12:
            for k in 0..<count {
                let place = places[k]
                row(place)[Int(place & 0xFFFF)] = UInt8(truncatingIfNeeded: values[k])
            }
        case .z16, .alpha8:
            break
        }
    }
}
