import KernelIO

/// A PixelBuffer in a class, for the places that keep several in an array (rings of slots):
/// Swift arrays cannot hold ~Copyable values.
public final class SlotBuffer {
    public let buffer: PixelBuffer

    public init(format: PixelFormat, size: FrameSize) throws(SystemError) {
        buffer = try PixelBuffer(allocating: format, size: size)
    }

    public var view: ImageView { buffer.view }
}
