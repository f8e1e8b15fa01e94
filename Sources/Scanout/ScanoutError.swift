import KernelIO

/// Why the display could not be found, set up or driven.
public enum ScanoutError: Error, Equatable {
    /// No /dev/dri/card* is a KMS device (a render-only GPU, or no display driver at all).
    case noKMSCard(String)
    /// A KMS card exists but nothing is plugged in (the sink waits for this to change).
    case noDisplayConnected
    /// The card lacks something required (atomic API, dumb buffers, a plane for XRGB8888).
    case unsupported(String)
    /// The driver refused an atomic request; `what` names the commit.
    case commitRejected(String, Errno)
    case system(SystemError)

    public var message: String {
        switch self {
        case .noKMSCard(let detail): return "no KMS display card: \(detail)"
        case .noDisplayConnected: return "no display connected"
        case .unsupported(let detail): return "display not usable: \(detail)"
        case .commitRejected(let what, let errno): return "display refused \(what): \(errno.description)"
        case .system(let error): return error.message
        }
    }
}
