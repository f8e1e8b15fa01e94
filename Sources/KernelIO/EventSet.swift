import CKernel

/// One epoll set: the I/O thread's single place to sleep. Each registered descriptor carries a
/// token bit; `wait` returns the bits of those that became readable (or errored, which the owner
/// then discovers on its own read). Owns the epoll fd; the registered fds stay their owners'.
public struct EventSet: ~Copyable {
    private let fd: Int32

    public init() throws(SystemError) {
        let fd = bk_epoll_create()
        guard fd >= 0 else { throw SystemError("epoll_create") }
        self.fd = fd
    }

    /// Registers `descriptor` under `token` (a single bit, 1 << n). Registering a descriptor
    /// again (a camera reopened on a reused number) replaces its entry.
    public func add(_ descriptor: Int32, token: UInt64) throws(SystemError) {
        _ = bk_epoll_remove(fd, descriptor)
        guard bk_epoll_add(fd, descriptor, UInt32(BK_EPOLLIN | BK_EPOLLPRI), token) == 0 else {
            throw SystemError("epoll add fd \(descriptor)")
        }
    }

    public func remove(_ descriptor: Int32) { _ = bk_epoll_remove(fd, descriptor) }

    /// Sleeps until something is readable or `timeoutMilliseconds` pass; the ready tokens, OR-ed.
    public func wait(timeoutMilliseconds: Int32) -> UInt64 {
        var tokens: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
        var masks: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0, 0, 0, 0, 0)
        let count = withUnsafeMutableBytes(of: &tokens) { tokenBytes in
            withUnsafeMutableBytes(of: &masks) { maskBytes in
                bk_epoll_wait(fd, tokenBytes.baseAddress!.assumingMemoryBound(to: UInt64.self),
                              maskBytes.baseAddress!.assumingMemoryBound(to: UInt32.self), 8, timeoutMilliseconds)
            }
        }
        guard count > 0 else { return 0 }
        var ready: UInt64 = 0
        withUnsafeBytes(of: &tokens) { bytes in
            let values = bytes.bindMemory(to: UInt64.self)
            for index in 0..<Int(count) { ready |= values[index] }
        }
        return ready
    }

    deinit { _ = bk_close(fd) }
}
