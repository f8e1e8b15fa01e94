import CKernel

/// An eventfd another thread writes to wake the I/O thread's epoll wait ("a result is ready").
/// Contract: any thread may `signal` (never blocks, never allocates); only the I/O thread
/// `drain`s, after the fd was readable. It carries no data: what was produced travels through its
/// own hand-off primitive, which the receiver reads after draining. Owns the fd. Sendable by
/// that contract: `signal` is the only thing another thread does with it.
public final class WakeSignal: @unchecked Sendable {
    private let fd: Int32

    public init() throws(SystemError) {
        let fd = bk_eventfd()
        guard fd >= 0 else { throw SystemError("eventfd") }
        self.fd = fd
    }

    public func signal() { _ = bk_eventfd_signal(fd) }

    /// Resets the counter (non-blocking); false when nothing had been signalled.
    @discardableResult
    public func drain() -> Bool { bk_eventfd_drain(fd) == 0 }

    /// Lends the fd (for an epoll set); it stays owned here.
    public func withRawValue<R, E: Error>(_ body: (Int32) throws(E) -> R) throws(E) -> R { try body(fd) }

    deinit { _ = bk_close(fd) }
}
