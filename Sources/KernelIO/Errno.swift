import CKernel

/// A kernel error number captured right after the failing call. Wrappers return it;
/// callers add what they were doing (see `SystemError`).
public struct Errno: Equatable, Sendable {
    public let code: Int32
    public init(_ code: Int32) { self.code = code }

    /// The errno of the call that just failed on this thread.
    public static var current: Errno { Errno(bk_errno()) }

    public static let interrupted = Errno(Int32(BK_EINTR))
    public static let wouldBlock = Errno(Int32(BK_EAGAIN))
    public static let noSuchFile = Errno(Int32(BK_ENOENT))
    public static let noDevice = Errno(Int32(BK_ENODEV))
    public static let busy = Errno(Int32(BK_EBUSY))
    public static let invalidArgument = Errno(Int32(BK_EINVAL))
    public static let notPermitted = Errno(Int32(BK_EPERM))
    public static let outOfMemory = Errno(Int32(BK_ENOMEM))

    public var description: String {
        guard let text = bk_strerror(code) else { return "errno \(code)" }
        return String(cString: text)
    }
}
