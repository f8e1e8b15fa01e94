import Frames
import KernelIO

/// One output-sized XRGB8888 buffer that holds the decoded, prescaled backdrop `index` of the
/// library (or nothing yet: -1). The library owns a fixed handful of these for its whole life and
/// refills them, so a switch never allocates and the memory does not grow with the folder.
final class BackdropSlot {
    var index = -1
    let buffer: PixelBuffer

    init(outputSize: FrameSize) throws(SystemError) {
        buffer = try PixelBuffer(allocating: .xrgb8888, size: outputSize)
    }

    var view: ImageView { buffer.view }
}
