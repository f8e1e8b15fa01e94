import CKernel

/// A counting semaphore between pipeline threads (an eventfd in semaphore mode). Owns its fd.
public struct Semaphore: ~Copyable {
    private let fd: Int32

    public init() throws(SystemError) {
        let fd = bk_semaphore_create()
        guard fd >= 0 else { throw SystemError("eventfd") }
        self.fd = fd
    }

    public func post() { _ = bk_semaphore_post(fd) }

    /// Blocks until posted.
    public func wait() { _ = bk_semaphore_wait(fd, -1) }

    /// Returns false when nothing was posted within the time-out.
    public func wait(timeoutMilliseconds: Int32) -> Bool { bk_semaphore_wait(fd, timeoutMilliseconds) == 1 }

    deinit { _ = bk_close(fd) }
}
