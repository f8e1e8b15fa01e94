import CSpng
import CTurboJPEG
import Frames
import KernelIO

/// Decodes PNG (libspng) and JPEG (libturbojpeg) files into Backdrop's pixel formats.
///
/// One decoder keeps its file buffer and JPEG handle between calls, so decoding a sequence of
/// similar files (a recording) allocates only inside libspng's per-file context. Not thread-safe:
/// give each thread its own decoder. Every size is checked against the limits from the header,
/// before any pixel memory is allocated.
public final class ImageDecoder {
    /// Largest width or height accepted.
    public static let maximumSide = 16384
    /// Largest pixel count accepted (64 Mpx: a 8192x8192 RGB24 image is 192 MiB decoded).
    public static let maximumPixels = 8192 * 8192

    private let file = ImageFileBuffer()
    private var jpeg: tjhandle?

    public init() {}

    deinit { if let jpeg { tjDestroy(jpeg) } }

    /// Reads and checks the header only.
    public func header(path: String) throws(ImageError) -> ImageHeader {
        let bytes = try file.read(path)
        return try header(of: bytes, path: path)
    }

    /// Decodes into a new buffer of the file's natural format (see `ImageHeader.naturalFormat`).
    public func decode(path: String) throws(ImageError) -> PixelBuffer {
        let bytes = try file.read(path)
        let info = try header(of: bytes, path: path)
        let buffer = try Self.allocate(info.naturalFormat, info.size, path: path)
        try decode(bytes, info: info, path: path, into: buffer.view)
        return buffer
    }

    /// Like `decode(path:)`, but a JPEG much larger than `minimumSize` is decoded at a reduced
    /// scale (libjpeg's DCT scaling: 1/2, 1/4, 1/8 ...), the smallest that still covers
    /// `minimumSize` on both axes. Backdrops are scaled down to the screen anyway; this makes a
    /// 12 Mpx photo decode several times faster. PNGs decode at full size.
    public func decode(path: String, covering minimumSize: FrameSize) throws(ImageError) -> PixelBuffer {
        let bytes = try file.read(path)
        let info = try header(of: bytes, path: path)
        guard info.container == .jpeg else {
            let buffer = try Self.allocate(info.naturalFormat, info.size, path: path)
            try decode(bytes, info: info, path: path, into: buffer.view)
            return buffer
        }
        // Scaling works on the stored pixels: turn the wanted size and the image back to them.
        let orientation = info.orientation
        let storedSize = orientation.displayedSize(ofStored: info.size)
        let minimumSize = orientation.displayedSize(ofStored: minimumSize)
        var count: Int32 = 0
        var best = storedSize
        if let factors = tjGetScalingFactors(&count) {
            for index in 0..<Int(count) {
                let factor = factors[index]
                guard factor.num > 0, factor.denom > 0, factor.num <= factor.denom else { continue }
                // TJSCALED: ceil(dimension * num / denom).
                let width = (storedSize.width * Int(factor.num) + Int(factor.denom) - 1) / Int(factor.denom)
                let height = (storedSize.height * Int(factor.num) + Int(factor.denom) - 1) / Int(factor.denom)
                if width >= minimumSize.width, height >= minimumSize.height, width * height < best.pixelCount {
                    best = FrameSize(width: width, height: height)
                }
            }
        }
        let buffer = try Self.allocate(.rgb24, orientation.displayedSize(ofStored: best), path: path)
        try decodeJPEG(bytes, path: path, orientation: orientation, into: buffer.view)
        return buffer
    }

    /// Decodes into memory the caller owns, without allocating pixel memory. The view's size must
    /// equal the image's. `.rgb24` accepts any image; `.z16` needs a 16-bit greyscale PNG;
    /// `.alpha8` an 8-bit greyscale PNG.
    public func decode(path: String, into view: ImageView) throws(ImageError) {
        let bytes = try file.read(path)
        let info = try header(of: bytes, path: path)
        try decode(bytes, info: info, path: path, into: view)
    }

    /// Decodes bytes already in memory (for callers that embed or download images).
    public func decode(bytes: UnsafeRawBufferPointer, name: String) throws(ImageError) -> PixelBuffer {
        let info = try header(of: bytes, path: name)
        let buffer = try Self.allocate(info.naturalFormat, info.size, path: name)
        try decode(bytes, info: info, path: name, into: buffer.view)
        return buffer
    }

    public func header(of bytes: UnsafeRawBufferPointer, path: String) throws(ImageError) -> ImageHeader {
        guard let container = ImageContainer.detect(bytes) else {
            if bytes.isEmpty { throw .unsupportedFormat(path: path, detail: "the file is empty") }
            throw .unsupportedFormat(path: path, detail: "not a PNG or JPEG file (unrecognised signature)")
        }
        switch container {
        case .png: return try withPNG(bytes, path: path) { context throws(ImageError) in
            try pngHeader(context, path: path)
        }
        case .jpeg: return try jpegHeader(bytes, path: path)
        }
    }

    private func decode(_ bytes: UnsafeRawBufferPointer, info: ImageHeader, path: String,
                        into view: ImageView) throws(ImageError) {
        guard view.size == info.size else {
            throw .mismatch(path: path, detail: "image is \(info.size.description), expected \(view.size.description)")
        }
        switch view.format {
        case .rgb24:
            break
        case .z16:
            guard info.naturalFormat == .z16 else {
                throw .mismatch(path: path, detail: "expected a 16-bit greyscale PNG (depth), found \(describe(info))")
            }
        case .alpha8:
            guard info.isGrey8 else {
                throw .mismatch(path: path, detail: "expected an 8-bit greyscale PNG, found \(describe(info))")
            }
        default:
            throw .mismatch(path: path, detail: "cannot decode into \(view.format.name)")
        }
        switch info.container {
        case .png:
            try withPNG(bytes, path: path) { context throws(ImageError) in
                try decodePNG(context, info: info, path: path, into: view)
            }
        case .jpeg:
            try decodeJPEG(bytes, path: path, orientation: info.orientation, into: view)
        }
    }

    private func describe(_ info: ImageHeader) -> String {
        if info.naturalFormat == .z16 { return "a 16-bit greyscale PNG" }
        if info.isGrey8 { return "an 8-bit greyscale PNG" }
        return "a colour \(info.container.name)"
    }

    private static func allocate(_ format: PixelFormat, _ size: FrameSize, path: String) throws(ImageError) -> PixelBuffer {
        do throws(SystemError) {
            return try PixelBuffer(allocating: format, size: size)
        } catch {
            throw .outOfMemory(path: path, width: size.width, height: size.height)
        }
    }

    private static func checkLimits(width: Int, height: Int, path: String) throws(ImageError) {
        guard width > 0, height > 0 else {
            throw .corrupt(path: path, detail: "header gives an empty size \(width)x\(height)")
        }
        if width > maximumSide || height > maximumSide || width * height > maximumPixels {
            throw .tooLarge(path: path, width: width, height: height)
        }
    }

    // MARK: PNG

    private func withPNG<R>(_ bytes: UnsafeRawBufferPointer, path: String,
                            _ body: (OpaquePointer) throws(ImageError) -> R) throws(ImageError) -> R {
        guard let context = spng_ctx_new(0) else { throw .corrupt(path: path, detail: "libspng: out of memory") }
        defer { spng_ctx_free(context) }
        // Bounds ancillary chunk memory so a hostile file cannot make the decoder balloon.
        _ = spng_set_chunk_limits(context, 16 * 1024 * 1024, 64 * 1024 * 1024)
        let status = spng_set_png_buffer(context, bytes.baseAddress, bytes.count)
        guard status == 0 else { throw .corrupt(path: path, detail: Self.spngText(status)) }
        return try body(context)
    }

    private func pngHeader(_ context: OpaquePointer, path: String) throws(ImageError) -> ImageHeader {
        var ihdr = spng_ihdr()
        let status = spng_get_ihdr(context, &ihdr)
        guard status == 0 else { throw .corrupt(path: path, detail: Self.spngText(status)) }
        let width = Int(ihdr.width)
        let height = Int(ihdr.height)
        try Self.checkLimits(width: width, height: height, path: path)
        let grey = ihdr.color_type == UInt8(SPNG_COLOR_TYPE_GRAYSCALE.rawValue)
        return ImageHeader(container: .png, size: FrameSize(width: width, height: height),
                           naturalFormat: grey && ihdr.bit_depth == 16 ? .z16 : .rgb24,
                           isGrey8: grey && ihdr.bit_depth == 8)
    }

    private func decodePNG(_ context: OpaquePointer, info: ImageHeader, path: String,
                           into view: ImageView) throws(ImageError) {
        let format: Int32
        switch view.format {
        case .z16, .alpha8: format = Int32(SPNG_FMT_PNG.rawValue)  // host-endian samples as stored
        default: format = Int32(SPNG_FMT_RGB8.rawValue)
        }
        let rowBytes = view.format.minimumBytesPerRow(width: info.size.width)
        // Progressive mode hands us one row at a time, so rows land at the view's own stride.
        var status = spng_decode_image(context, nil, 0, format, Int32(SPNG_DECODE_PROGRESSIVE.rawValue))
        guard status == 0 else { throw .corrupt(path: path, detail: Self.spngText(status)) }
        var row = spng_row_info()
        repeat {
            status = spng_get_row_info(context, &row)
            if status != 0 { break }
            status = spng_decode_row(context, view.row(Int(row.row_num)), rowBytes)
        } while status == 0
        guard status == Int32(SPNG_EOI.rawValue) else {
            throw .corrupt(path: path, detail: Self.spngText(status))
        }
    }

    private static func spngText(_ status: Int32) -> String {
        guard let text = spng_strerror(status) else { return "libspng error \(status)" }
        return "libspng: " + String(cString: text)
    }

    // MARK: JPEG

    private func jpegHandle(path: String) throws(ImageError) -> tjhandle {
        if let jpeg { return jpeg }
        guard let handle = tjInitDecompress() else {
            throw .corrupt(path: path, detail: "libturbojpeg: cannot create a decompressor")
        }
        jpeg = handle
        return handle
    }

    private func jpegHeader(_ bytes: UnsafeRawBufferPointer, path: String) throws(ImageError) -> ImageHeader {
        let handle = try jpegHandle(path: path)
        var width: Int32 = 0
        var height: Int32 = 0
        var subsampling: Int32 = 0
        var colorspace: Int32 = 0
        let status = tjDecompressHeader3(handle, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self),
                                         UInt(bytes.count), &width, &height, &subsampling, &colorspace)
        guard status == 0 else { throw .corrupt(path: path, detail: jpegText(handle)) }
        try Self.checkLimits(width: Int(width), height: Int(height), path: path)
        let orientation = ExifOrientation.of(jpeg: bytes)
        return ImageHeader(container: .jpeg,
                           size: orientation.displayedSize(ofStored: FrameSize(width: Int(width), height: Int(height))),
                           naturalFormat: .rgb24, isGrey8: false, orientation: orientation)
    }

    /// `view` has the displayed size; a turned image is decoded into a stored-size buffer first.
    private func decodeJPEG(_ bytes: UnsafeRawBufferPointer, path: String, orientation: ExifOrientation,
                            into view: ImageView) throws(ImageError) {
        guard orientation != .upright else { return try decodeJPEG(bytes, path: path, into: view) }
        let stored = try Self.allocate(.rgb24, orientation.displayedSize(ofStored: view.size), path: path)
        try decodeJPEG(bytes, path: path, into: stored.view)
        orientation.turn(stored.view, into: view)
    }

    private func decodeJPEG(_ bytes: UnsafeRawBufferPointer, path: String, into view: ImageView) throws(ImageError) {
        let handle = try jpegHandle(path: path)
        let source = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        guard tjDecompressHeader3(handle, source, UInt(bytes.count), &width, &height, &subsampling, &colorspace) == 0 else {
            throw .corrupt(path: path, detail: jpegText(handle))
        }
        if colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue) {
            return try decodeCMYK(bytes, handle: handle, path: path, into: view)
        }
        // Stop on warnings: libjpeg's "premature end of data" is only a warning. A truncated JPEG
        // is refused although its top part would decode: on a box it is nearly always a copy cut
        // short (a stick pulled out), the rest would show as flat grey on the TV, and the refusal
        // names the file so it can be copied again. The previous backdrop set stays meanwhile.
        let status = tjDecompress2(handle, source, UInt(bytes.count), view.base.assumingMemoryBound(to: UInt8.self),
                                   Int32(view.size.width), Int32(view.bytesPerRow), Int32(view.size.height),
                                   Int32(TJPF_RGB.rawValue), Int32(TJFLAG_STOPONWARNING))
        guard status == 0 else { throw .corrupt(path: path, detail: jpegText(handle)) }
    }

    /// libturbojpeg decodes CMYK and YCCK JPEGs (print workflows, some stock photos) only to CMYK
    /// pixels. The conversion to RGB is the naive one without a colour profile: close enough for a
    /// backdrop, where refusing the file would be worse. Such files carry Adobe's APP14 marker and
    /// store the channels inverted (255 = no ink), as libjpeg's own example and browsers read them.
    private func decodeCMYK(_ bytes: UnsafeRawBufferPointer, handle: tjhandle, path: String,
                            into view: ImageView) throws(ImageError) {
        let cmyk = try Self.allocate(.xrgb8888, view.size, path: path)
        let status = tjDecompress2(handle, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt(bytes.count),
                                   cmyk.base.assumingMemoryBound(to: UInt8.self), Int32(view.size.width),
                                   Int32(cmyk.bytesPerRow), Int32(view.size.height),
                                   Int32(TJPF_CMYK.rawValue), Int32(TJFLAG_STOPONWARNING))
        guard status == 0 else { throw .corrupt(path: path, detail: jpegText(handle)) }
        for y in 0..<view.size.height {
            let input = cmyk.row(y).assumingMemoryBound(to: UInt8.self)
            let output = view.row(y).assumingMemoryBound(to: UInt8.self)
            for x in 0..<view.size.width {
                let key = UInt32(input[x * 4 + 3])
                for channel in 0..<3 {
                    output[x * 3 + channel] = UInt8((UInt32(input[x * 4 + channel]) * key + 127) / 255)
                }
            }
        }
    }

    private func jpegText(_ handle: tjhandle) -> String {
        guard let text = tjGetErrorStr2(handle) else { return "libturbojpeg error" }
        return "libturbojpeg: " + String(cString: text)
    }
}
