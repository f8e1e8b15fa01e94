/// Corrections to a frame as a list of pixel writes, lent read-only by their owner (the matte's
/// RimPatch), so the frame itself is never written: a reader lays a row's writes into its own copy
/// of that row as it reads it (the compositor's band row, which stays in the first-level cache),
/// or into a copy of the whole frame (tools).
///
/// Each entry is one pixel (row << 16 | column) and its new bytes in the frame's own layout:
/// R G B (or B G R X) in the low three bytes; YUYV Y, Cb, Cr and, in the top byte, `chromaFlag`
/// when the pixel also writes its pair's chroma; NV12 Y (the chroma plane is never written). No
/// two entries write the same byte, so their order within a row does not matter. The entries
/// are in row order, and `rowStarts` indexes them by row.
///
/// Valid until the owner's next run rewrites the entries: a reader on another thread reads it
/// only between the owner's run and the next, as the compose bands do (BandWorkers.runBands
/// starts and joins them between two matte runs).
public struct PixelPatch {
    public static let chromaFlag: UInt32 = 1 << 24

    public let size: FrameSize
    private let places: UnsafePointer<UInt32>
    private let values: UnsafePointer<UInt32>
    /// rowStarts[y] ..< rowStarts[y + 1] are row y's entries (size.height + 1 values).
    private let rowStarts: UnsafePointer<Int32>

    public init(size: FrameSize, places: UnsafePointer<UInt32>, values: UnsafePointer<UInt32>,
                rowStarts: UnsafePointer<Int32>) {
        self.size = size
        self.places = places
        self.values = values
        self.rowStarts = rowStarts
    }

    @inline(__always)
    public func hasEntries(inRow y: Int) -> Bool { rowStarts[y] != rowStarts[y &+ 1] }

    /// Lays row `y`'s writes into `row`, a copy of that row of a `format` frame (the first plane's).
    @inline(__always)
    public func write(row y: Int, format: PixelFormat, into row: UnsafeMutableRawPointer) {
        let pixels = row.assumingMemoryBound(to: UInt8.self)
        let entries = Int(rowStarts[y])..<Int(rowStarts[y &+ 1])
        switch format {
        case .rgb24, .xrgb8888, .argb8888:
            let step = format == .rgb24 ? 3 : 4
            for k in entries {
                let p = pixels + step &* Int(places[k] & 0xFFFF)
                let new = values[k]
                p[0] = UInt8(truncatingIfNeeded: new)
                p[1] = UInt8(truncatingIfNeeded: new >> 8)
                p[2] = UInt8(truncatingIfNeeded: new >> 16)
            }
        case .yuyv:
            for k in entries {
                let x = Int(places[k] & 0xFFFF)
                let new = values[k]
                pixels[x &<< 1] = UInt8(truncatingIfNeeded: new)
                if new & Self.chromaFlag != 0 {
                    let pair = pixels + ((x >> 1) &<< 2)
                    pair[1] = UInt8(truncatingIfNeeded: new >> 8)
                    pair[3] = UInt8(truncatingIfNeeded: new >> 16)
                }
            }
        case .nv12:
            for k in entries { pixels[Int(places[k] & 0xFFFF)] = UInt8(truncatingIfNeeded: values[k]) }
        case .z16, .alpha8:
            break
        }
    }

    /// Lays every write into `frame`, a copy of the frame the patch was made for.
    public func write(into frame: ImageView) {
        precondition(frame.size == size, "pixel patch: written into another frame")
        for y in 0..<size.height where hasEntries(inRow: y) {
            write(row: y, format: frame.format, into: frame.row(y))
        }
    }
}
