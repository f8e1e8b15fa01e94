import Frames
import KernelIO

/// One decoded image per capture slot, for compressed and converted streams: slot i's JPEG is decoded into
/// image i, so a decoded frame stays intact for as long as the pipeline holds slot i, exactly
/// like an uncompressed mmap buffer. Allocated once, at open.
final class DecodedFrames {
    let format: PixelFormat
    let size: FrameSize
    let bytesPerRow: Int
    private let slotBytes: Int
    private let storage: AlignedBuffer

    /// - packedRows: rows of exactly the format's minimum bytes (libv4lconvert writes them so);
    ///   else 64-byte aligned rows for wide loads.
    init(format: PixelFormat, size: FrameSize, slots: Int, packedRows: Bool = false) throws(SystemError) {
        let minimum = format.minimumBytesPerRow(width: size.width)
        self.format = format
        self.size = size
        self.bytesPerRow = packedRows ? minimum : (minimum + 63) / 64 * 64
        let bytes = format.byteCount(bytesPerRow: bytesPerRow, height: size.height)
        self.slotBytes = (bytes + 63) / 64 * 64
        self.storage = try AlignedBuffer(byteCount: slotBytes * slots)
    }

    func view(slot: Int) -> ImageView {
        ImageView(format: format, size: size, bytesPerRow: bytesPerRow, base: storage.base + slot * slotBytes)
    }
}
