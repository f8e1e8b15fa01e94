import Frames
import KernelIO

/// Why a sink's scanout buffers do not come from libgbm, for the start-up line: what failed,
/// and what would mend it where that is known.
public enum GBMRefusal: Error, Equatable, Sendable {
    /// gbm_create_device failed on the card (driver name as the kernel gives it).
    case noBackend(driver: String)
    /// gbm_bo_create refused a linear scanout buffer of this format and size.
    case create(format: String, size: FrameSize, Errno)
    /// gbm_bo_map refused to map the buffer for the CPU.
    case map(Errno)
    /// The kernel refused a framebuffer on the buffer object.
    case addFramebuffer(format: String, Errno)
    /// TEST_ONLY refused the configuration with GBM buffers and accepted it with dumb buffers.
    case displayRefused(String)

    public var message: String {
        switch self {
        case .noBackend(let driver):
            return "no backend for \(driver): gbm_create_device failed (libgbm serves a card through Mesa's DRI driver"
                + " for it, Debian's libgl1-mesa-dri, which is not installed or not loadable here)"
        case .create(let format, let size, let errno):
            return "gbm_bo_create refused a \(size.description) \(format) linear scanout buffer: \(errno.description)"
        case .map(let errno): return "gbm_bo_map refused to map a buffer for the CPU: \(errno.description)"
        case .addFramebuffer(let format, let errno):
            return "the kernel refused a framebuffer (\(format)) on a GBM buffer: \(errno.description)"
        case .displayRefused(let detail): return "refused where dumb buffers pass (\(detail))"
        }
    }
}
