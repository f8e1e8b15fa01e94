import CTurboJPEG
import Frames

/// A libturbojpeg compressor and its output buffer, made once for one image size, so encoding a
/// photo allocates nothing: the buffer is sized by `tjBufSize` (the worst case) and libturbojpeg
/// is told never to grow it (TJFLAG_NOREALLOC). Photos use 4:4:4 (no chroma subsampling): the
/// composite has hard, saturated matte edges that 4:2:0 visibly smears. One owner; not shared
/// between threads at once.
public struct JPEGCompressor: ~Copyable {
    public let size: FrameSize
    public let quality: Int32
    private let handle: UnsafeMutableRawPointer
    private let buffer: UnsafeMutablePointer<UInt8>
    private let capacity: Int

    /// - quality: 1...100; 95 keeps a 1080p composite well above 40 dB PSNR.
    public init(size: FrameSize, quality: Int32 = 95) throws(ImageError) {
        precondition(size.width > 0 && size.height > 0 && (1...100).contains(quality))
        let bound = tjBufSize(Int32(size.width), Int32(size.height), Int32(TJSAMP_444.rawValue))
        guard bound != UInt.max, bound > 0 else {
            throw .writeFailed(path: "JPEG", reason: "libturbojpeg: no buffer size for \(size.description)")
        }
        guard let handle = tjInitCompress() else {
            throw .writeFailed(path: "JPEG", reason: "libturbojpeg: cannot create a compressor")
        }
        guard let buffer = tjAlloc(Int32(clamping: bound)) else {
            tjDestroy(handle)
            throw .writeFailed(path: "JPEG", reason: "libturbojpeg: cannot allocate \(bound) bytes")
        }
        self.size = size
        self.quality = quality
        self.handle = handle
        self.buffer = buffer
        self.capacity = Int(bound)
    }

    deinit {
        tjFree(buffer)
        tjDestroy(handle)
    }

    /// Encodes `view` (XRGB8888 or RGB24 at `size`); the bytes stay valid until the next call.
    public func compress(_ view: ImageView) throws(ImageError) -> UnsafeRawBufferPointer {
        precondition(view.size == size, "the compressor was made for \(size.description)")
        let pixelFormat: Int32
        switch view.format {
        case .xrgb8888, .argb8888: pixelFormat = Int32(TJPF_BGRX.rawValue)  // memory order B, G, R, X
        case .rgb24: pixelFormat = Int32(TJPF_RGB.rawValue)
        default:
            throw .writeFailed(path: "JPEG", reason: "JPEG encoding of \(view.format.name) is not supported")
        }
        var output: UnsafeMutablePointer<UInt8>? = buffer
        var length = UInt(capacity)
        let status = tjCompress2(handle, view.base.assumingMemoryBound(to: UInt8.self), Int32(view.size.width),
                                 Int32(view.bytesPerRow), Int32(view.size.height), pixelFormat,
                                 &output, &length, Int32(TJSAMP_444.rawValue), quality, Int32(TJFLAG_NOREALLOC))
        guard status == 0, output == buffer else {
            let reason = tjGetErrorStr2(handle).map { String(cString: $0) } ?? "unknown error"
            throw .writeFailed(path: "JPEG", reason: "libturbojpeg: " + reason)
        }
        return UnsafeRawBufferPointer(start: buffer, count: Int(length))
    }
}
