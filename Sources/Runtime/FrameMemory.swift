import Frames
import KernelIO

/// Frame memory for a command (its start-up buffers, a recording's frames): a refused allocation
/// (ENOMEM) is the command's runtime failure, exit status 1, with the size named, not a crash.
public enum FrameMemory {
    public static func buffer(_ format: PixelFormat, _ size: FrameSize) throws(CommandFailure) -> PixelBuffer {
        do throws(SystemError) {
            return try PixelBuffer(allocating: format, size: size)
        } catch {
            throw .runtime("not enough memory for a \(size.description) \(format.name) frame: \(error.message)")
        }
    }

    /// What `make` builds around its frame memory (a source's or a sink's slots, the backdrops).
    public static func allocating<T: ~Copyable>(_ what: String, _ make: () throws(SystemError) -> T) throws(CommandFailure) -> T {
        do throws(SystemError) {
            return try make()
        } catch {
            throw .runtime("not enough memory for \(what): \(error.message)")
        }
    }
}
