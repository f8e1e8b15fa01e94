import CKernel

/// The I/O thread's one timerfd: every deadline the loop keeps (display wait, camera back-off,
/// long press, countdown, message expiry, heartbeat) is folded into the earliest one and armed
/// here, so the loop's only sleep is the epoll wait that includes this fd. One-shot, absolute
/// CLOCK_MONOTONIC; owns the fd. Used from one thread only.
public struct DeadlineTimer: ~Copyable {
    private let fd: Int32
    /// The deadline armed now (0 = none), so re-arming the same time costs no syscall.
    public private(set) var armedAt: UInt64 = 0

    public init() throws(SystemError) {
        let fd = bk_timerfd_create()
        guard fd >= 0 else { throw SystemError("timerfd_create") }
        self.fd = fd
    }

    /// Fires once at `nanoseconds` (CLOCK_MONOTONIC); nil disarms. A time already past fires at once.
    public mutating func arm(at nanoseconds: UInt64?) {
        let wanted = nanoseconds ?? 0
        guard wanted != armedAt else { return }
        _ = bk_timerfd_arm_at(fd, wanted)
        armedAt = wanted
    }

    /// Reads the expiry (non-blocking) after the fd was readable; the timer is then disarmed.
    public mutating func acknowledge() {
        _ = bk_timerfd_drain(fd)
        armedAt = 0
    }

    /// Lends the fd (for an epoll set); it stays owned here.
    public func withRawValue<R, E: Error>(_ body: (Int32) throws(E) -> R) throws(E) -> R { try body(fd) }

    deinit { _ = bk_close(fd) }
}
