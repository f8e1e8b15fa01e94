import CTurboJPEG
import Frames
import KernelIO

/// Writes JPEG files with libturbojpeg (photos, test fixtures): RGB24, XRGB8888, ALPHA8 as grey.
/// Allocates; not for the steady-state frame path.
public enum JPEGEncoder {
    /// `quality` 1...100. Copies into a Swift array, whose allocation traps when it fails: for
    /// small images (tests); product code uses `withEncoded`.
    public static func encode(_ view: ImageView, quality: Int32 = 90) throws(ImageError) -> [UInt8] {
        try withEncoded(view, quality: quality) { bytes in Array(bytes) }
    }

    public static func write(_ view: ImageView, to path: String, quality: Int32 = 90) throws(ImageError) {
        try withEncoded(view, quality: quality) { bytes throws(ImageError) in
            do throws(SystemError) {
                let file = try FileDescriptor.createTruncating(path)
                try file.writeAll(bytes)
            } catch {
                throw .writeFailed(path: path, reason: error.message)
            }
        }
    }

    /// Hands `body` the encoded bytes in libturbojpeg's own buffer (freed after): a large image's
    /// JPEG is not copied into a Swift array, whose allocation would trap where this one is an error.
    public static func withEncoded<R>(_ view: ImageView, quality: Int32,
                                       _ body: (UnsafeRawBufferPointer) throws(ImageError) -> R) throws(ImageError) -> R {
        let pixelFormat: Int32
        var subsampling = Int32(TJSAMP_420.rawValue)
        switch view.format {
        case .rgb24: pixelFormat = Int32(TJPF_RGB.rawValue)
        case .xrgb8888: pixelFormat = Int32(TJPF_BGRX.rawValue)  // memory order B, G, R, X
        case .alpha8:
            pixelFormat = Int32(TJPF_GRAY.rawValue)
            subsampling = Int32(TJSAMP_GRAY.rawValue)
        default:
            throw .writeFailed(path: "JPEG", reason: "JPEG encoding of \(view.format.name) is not supported")
        }
        guard let handle = tjInitCompress() else {
            throw .writeFailed(path: "JPEG", reason: "libturbojpeg: cannot create a compressor")
        }
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>? = nil
        var length: UInt = 0
        let status = tjCompress2(handle, view.base.assumingMemoryBound(to: UInt8.self), Int32(view.size.width),
                                 Int32(view.bytesPerRow), Int32(view.size.height), pixelFormat,
                                 &output, &length, subsampling, quality, 0)
        defer { if let output { tjFree(output) } }
        guard status == 0, let output else {
            let reason = tjGetErrorStr2(handle).map { String(cString: $0) } ?? "unknown error"
            throw .writeFailed(path: "JPEG", reason: "libturbojpeg: " + reason)
        }
        return try body(UnsafeRawBufferPointer(start: output, count: Int(length)))
    }
}
