import CKernel
import CSpng
import Frames
import KernelIO

/// Writes PNG files with libspng: RGB24 and XRGB8888 as 8-bit RGB, ALPHA8 as 8-bit grey,
/// Z16 as 16-bit grey (the recording depth layout). Allocates; not for the steady-state frame path.
public enum PNGEncoder {
    /// zlib level 1..9; recorders may want 1 (fast), stills 6. Copies into a Swift array, whose
    /// allocation traps when it fails: for small images (tests); product code uses `withEncoded`.
    public static func encode(_ view: ImageView, compressionLevel: Int32 = 6) throws(ImageError) -> [UInt8] {
        try withEncoded(view, name: "PNG", compressionLevel: compressionLevel) { bytes in Array(bytes) }
    }

    /// Encodes and writes `path` (created or truncated).
    public static func write(_ view: ImageView, to path: String, compressionLevel: Int32 = 6) throws(ImageError) {
        try withEncoded(view, name: path, compressionLevel: compressionLevel) { bytes throws(ImageError) in
            do throws(SystemError) {
                let file = try FileDescriptor.createTruncating(path)
                try file.writeAll(bytes)
            } catch {
                throw .writeFailed(path: path, reason: error.message)
            }
        }
    }

    /// Hands `body` the encoded bytes in libspng's own buffer (freed after): a large image's PNG is
    /// not copied into a Swift array, whose allocation would trap where this one is an error.
    /// `name` is only for messages.
    public static func withEncoded<R>(_ view: ImageView, name: String, compressionLevel: Int32,
                                       _ body: (UnsafeRawBufferPointer) throws(ImageError) -> R) throws(ImageError) -> R {
        let bitDepth: UInt8
        let colorType: UInt8
        switch view.format {
        case .rgb24, .xrgb8888:
            bitDepth = 8
            colorType = UInt8(SPNG_COLOR_TYPE_TRUECOLOR.rawValue)
        case .alpha8:
            bitDepth = 8
            colorType = UInt8(SPNG_COLOR_TYPE_GRAYSCALE.rawValue)
        case .z16:
            bitDepth = 16
            colorType = UInt8(SPNG_COLOR_TYPE_GRAYSCALE.rawValue)
        default:
            throw .writeFailed(path: name, reason: "PNG encoding of \(view.format.name) is not supported")
        }
        guard let context = spng_ctx_new(Int32(SPNG_CTX_ENCODER.rawValue)) else {
            throw .writeFailed(path: name, reason: "libspng: out of memory")
        }
        defer { spng_ctx_free(context) }
        _ = spng_set_option(context, SPNG_ENCODE_TO_BUFFER, 1)
        _ = spng_set_option(context, SPNG_IMG_COMPRESSION_LEVEL, compressionLevel)
        var ihdr = spng_ihdr(width: UInt32(view.size.width), height: UInt32(view.size.height),
                             bit_depth: bitDepth, color_type: colorType, compression_method: 0,
                             filter_method: 0, interlace_method: 0)
        try check(spng_set_ihdr(context, &ihdr), name)
        try check(spng_encode_image(context, nil, 0, Int32(SPNG_FMT_PNG.rawValue),
                                    Int32(SPNG_ENCODE_PROGRESSIVE.rawValue | SPNG_ENCODE_FINALIZE.rawValue)), name)
        let width = view.size.width
        let rowBytes = view.format == .xrgb8888 ? width * 3 : view.format.minimumBytesPerRow(width: width)
        // XRGB8888 rows are repacked to RGB; the other formats are already in PNG sample order.
        var packed = [UInt8](repeating: 0, count: view.format == .xrgb8888 ? rowBytes : 0)
        for y in 0..<view.size.height {
            var source = UnsafeRawPointer(view.row(y))
            if view.format == .xrgb8888 {
                let pixels = view.row(y).assumingMemoryBound(to: UInt8.self)
                packed.withUnsafeMutableBufferPointer { out in
                    for x in 0..<width {
                        // XRGB8888 is a little-endian 0xXXRRGGBB word: bytes B, G, R, X.
                        out[x * 3] = pixels[x * 4 + 2]
                        out[x * 3 + 1] = pixels[x * 4 + 1]
                        out[x * 3 + 2] = pixels[x * 4]
                    }
                }
                source = packed.withUnsafeBytes { UnsafeRawPointer($0.baseAddress!) }
            }
            let status = spng_encode_row(context, source, rowBytes)
            if status == Int32(SPNG_EOI.rawValue) { break }
            try check(status, name)
        }
        var length = 0
        var error: Int32 = 0
        guard let encoded = spng_get_png_buffer(context, &length, &error) else {
            throw .writeFailed(path: name, reason: text(error))
        }
        defer { bk_free(encoded) }
        return try body(UnsafeRawBufferPointer(start: encoded, count: length))
    }

    private static func check(_ status: Int32, _ name: String) throws(ImageError) {
        guard status == 0 else { throw .writeFailed(path: name, reason: text(status)) }
    }

    private static func text(_ status: Int32) -> String {
        guard let text = spng_strerror(status) else { return "libspng error \(status)" }
        return "libspng: " + String(cString: text)
    }
}
