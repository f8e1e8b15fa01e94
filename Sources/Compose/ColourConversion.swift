import Frames

/// A camera frame (YUYV, NV12 or RGB24) as plain RGB24, with the same BT.601 maths as the
/// compositor: for keeping a photo's colour layer as PNG. Scalar and off the frame path (a
/// photo worker calls it once per photo); never allocates.
public enum ColourConversion {
    public static func rgb24(from source: ImageView, into target: ImageView) {
        precondition(target.format == .rgb24 && target.size == source.size, "target must be RGB24 at the source size")
        let width = source.size.width
        for y in 0..<source.size.height {
            let out = target.row(y).assumingMemoryBound(to: UInt8.self)
            let row = UnsafeRawPointer(source.row(y))
            switch source.format {
            case .rgb24:
                target.row(y).copyMemory(from: row, byteCount: width * 3)
            case .yuyv:
                for x in 0..<width {
                    let pair = (x & ~1) * 2
                    let rgb = YCbCr.rgb(y: Int32(row.load(fromByteOffset: x * 2, as: UInt8.self)),
                                        cb: Int32(row.load(fromByteOffset: pair + 1, as: UInt8.self)),
                                        cr: Int32(row.load(fromByteOffset: pair + 3, as: UInt8.self)))
                    store(rgb, out + x * 3)
                }
            case .nv12:
                let chroma = UnsafeRawPointer(source.chromaPlane! + (y / 2) * source.bytesPerRow)
                for x in 0..<width {
                    let pair = x & ~1
                    let rgb = YCbCr.rgb(y: Int32(row.load(fromByteOffset: x, as: UInt8.self)),
                                        cb: Int32(chroma.load(fromByteOffset: pair, as: UInt8.self)),
                                        cr: Int32(chroma.load(fromByteOffset: pair + 1, as: UInt8.self)))
                    store(rgb, out + x * 3)
                }
            default:
                preconditionFailure("colour conversion takes YUYV, NV12 or RGB24, not \(source.format.name)")
            }
        }
    }

    @inline(__always)
    private static func store(_ rgb: (r: Int32, g: Int32, b: Int32), _ out: UnsafeMutablePointer<UInt8>) {
        out[0] = UInt8(truncatingIfNeeded: rgb.r)
        out[1] = UInt8(truncatingIfNeeded: rgb.g)
        out[2] = UInt8(truncatingIfNeeded: rgb.b)
    }
}
