import Frames
import KernelIO

/// What one non-blocking VIDIOC_DQBUF gave.
public enum DequeueOutcome: Equatable {
    /// Slot `slot` holds a frame; it stays with the caller until `release(slot:)`.
    case frame(slot: Int, stamp: FrameStamp)
    /// Nothing ready (EAGAIN).
    case empty
    /// The device is gone; see `CameraState.disconnected`.
    case disconnected
    /// Any other failure: not fatal by itself, the caller may count it.
    case failed(Errno)

    /// How a DQBUF errno is read. ENODEV is an unplug (vivid's Disconnect control gives it too);
    /// vb2 answers EIO once its queue is marked failed (uvcvideo does so on USB disconnect) and
    /// EPIPE after the last buffer: none of them will ever deliver again on this fd.
    public static func classify(_ error: Errno) -> DequeueOutcome {
        switch error.code {
        case Errno.wouldBlock.code: return .empty
        case Errno.noDevice.code, 5 /* EIO */, 32 /* EPIPE */, 6 /* ENXIO */: return .disconnected
        default: return .failed(error)
        }
    }
}
