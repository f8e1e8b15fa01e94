import Frames

/// One scanout buffer, from libgbm or a dumb buffer: the CPU writes `view`, the display shows
/// `framebufferID`. The payload owns the memory and the framebuffer and releases both.
enum ScanoutBuffer {
    case gbm(GBMBuffer)
    case dumb(DumbBuffer)

    var view: ImageView {
        switch self {
        case .gbm(let buffer): return buffer.view
        case .dumb(let buffer): return buffer.view
        }
    }

    var framebufferID: UInt32 {
        switch self {
        case .gbm(let buffer): return buffer.framebufferID
        case .dumb(let buffer): return buffer.framebufferID
        }
    }

    var isGBM: Bool {
        if case .gbm = self { return true }
        return false
    }
}
