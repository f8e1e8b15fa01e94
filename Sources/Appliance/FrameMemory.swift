import Frames
import KernelIO

/// Frame buffers sized by a file (a recording's frames): a refused allocation is the command's
/// runtime failure with the size named, not a crash.
enum FrameMemory {
    static func buffer(_ format: PixelFormat, _ size: FrameSize) throws(CommandFailure) -> PixelBuffer {
        do throws(SystemError) {
            return try PixelBuffer(allocating: format, size: size)
        } catch {
            throw .runtime("not enough memory for a \(size.description) \(format.name) frame: \(error.message)")
        }
    }
}
