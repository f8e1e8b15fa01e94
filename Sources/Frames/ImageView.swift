/// A borrowed description of an image in memory someone else owns (a PixelBuffer, a V4L2 mmap
/// buffer, a DRM dumb buffer). Valid only while that owner keeps the memory mapped.
public struct ImageView {
    public let format: PixelFormat
    public let size: FrameSize
    public let bytesPerRow: Int
    public let base: UnsafeMutableRawPointer

    public init(format: PixelFormat, size: FrameSize, bytesPerRow: Int, base: UnsafeMutableRawPointer) {
        self.format = format
        self.size = size
        self.bytesPerRow = bytesPerRow
        self.base = base
    }

    public func row(_ row: Int) -> UnsafeMutableRawPointer { base + row * bytesPerRow }

    public var chromaPlane: UnsafeMutableRawPointer? {
        format == .nv12 ? base + bytesPerRow * size.height : nil
    }
}
