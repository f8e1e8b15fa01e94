import KernelIO

/// Why a camera could not be found, opened, configured or started. Values, never logged here:
/// the caller adds context and decides whether to retry.
public enum CaptureError: Error, Equatable {
    /// A system call failed: the operation names the device and the call.
    case system(SystemError)
    /// The device is gone (ENODEV): unplugged, or vivid's Disconnect control.
    case disconnected(path: String)
    /// `auto` found no node that fits, or a named node does not exist.
    case notFound(String)
    /// The node exists but cannot deliver what was asked (no such format, no streaming I/O).
    case unsupported(path: String, reason: String)

    public var message: String {
        switch self {
        case .system(let error): return error.message
        case .disconnected(let path): return "\(path): camera disconnected"
        case .notFound(let what): return what
        case .unsupported(let path, let reason): return "\(path): \(reason)"
        }
    }

    /// Errors that mean "the hardware went away": worth a later `reopen`.
    public var isDisconnect: Bool {
        switch self {
        case .disconnected: return true
        case .system(let error): return error.errno == .noDevice
        default: return false
        }
    }
}
