/// The I/O thread's one place to sleep: an epoll set of every fd it serves plus one timerfd
/// armed at the earliest of its deadlines. Owners register fds under token bits and deadlines
/// under ids they get from here, so parts of the loop (the pipeline, the booth, the devices)
/// never collide. `wait` blocks in epoll_wait and nowhere else.
///
/// Threading: one thread (the I/O thread) uses it; other threads reach it only by writing an fd
/// it watches (a WakeSignal).
public final class EventLoop {
    public typealias DeadlineID = Int
    /// The timer's own token bit; never handed out.
    private static let timerToken: UInt64 = 1 << 63

    private let events: EventSet
    private var timer: DeadlineTimer
    private var deadlines: [UInt64] = []
    private var nextToken: UInt64 = 1
    /// Returns from `wait`, for the idle wake-up figure.
    public private(set) var wakeups: UInt64 = 0

    public init() throws(SystemError) {
        events = try EventSet()
        timer = try DeadlineTimer()
        try timer.withRawValue { (fd) throws(SystemError) in try events.add(fd, token: Self.timerToken) }
        deadlines.reserveCapacity(16)
    }

    /// A token bit of one's own, to register fds under.
    public func newToken() -> UInt64 {
        precondition(nextToken < Self.timerToken, "more than 63 tokens")
        let token = nextToken
        nextToken <<= 1
        return token
    }

    /// A deadline slot of one's own (initially unset).
    public func newDeadline() -> DeadlineID {
        deadlines.append(0)
        return deadlines.count - 1
    }

    /// Watches `fd` for readability under `token` (again after a reopen replaces the entry).
    public func watch(_ fd: Int32, token: UInt64) throws(SystemError) {
        guard fd >= 0 else { return }
        try events.add(fd, token: token)
    }

    public func unwatch(_ fd: Int32) { if fd >= 0 { events.remove(fd) } }

    /// Sets (or with nil clears) a deadline, CLOCK_MONOTONIC nanoseconds.
    public func setDeadline(_ id: DeadlineID, at nanoseconds: UInt64?) { deadlines[id] = nanoseconds ?? 0 }

    public func deadline(_ id: DeadlineID) -> UInt64? { deadlines[id] == 0 ? nil : deadlines[id] }

    /// True, clearing it, when deadline `id` has passed at `now`.
    public func takeExpired(_ id: DeadlineID, now: UInt64) -> Bool {
        guard deadlines[id] != 0, deadlines[id] <= now else { return false }
        deadlines[id] = 0
        return true
    }

    /// Sleeps until a watched fd is readable or the earliest deadline is reached; returns the ready
    /// tokens OR-ed (0 when only a deadline woke it). Deadlines are not cleared here: their owners
    /// look with `takeExpired`.
    public func wait() -> UInt64 {
        var earliest: UInt64 = 0
        for deadline in deadlines where deadline != 0 && (earliest == 0 || deadline < earliest) { earliest = deadline }
        timer.arm(at: earliest == 0 ? nil : earliest)
        let ready = events.wait(timeoutMilliseconds: -1)
        wakeups &+= 1
        if ready & Self.timerToken != 0 { timer.acknowledge() }
        return ready & ~Self.timerToken
    }
}
