import KernelIO

/// The service watchdog's evidence that the box works: `count` advances at most once per
/// `interval`, and only when the loop iterated and frames progressed since the last beat, or the
/// loop knowingly waits for a camera or display that is away. A loop that hangs, or runs while
/// no frame moves, stops beating. Its own deadline makes an idle loop wake to beat. I/O thread only.
struct Heartbeat {
    static let intervalNanoseconds: UInt64 = 1_000_000_000

    private(set) var count: UInt64 = 0
    private var lastProgress = -1
    private let deadline: EventLoop.DeadlineID

    init(loop: EventLoop) {
        deadline = loop.newDeadline()
        loop.setDeadline(deadline, at: MonotonicClock.nowNanoseconds() + Self.intervalNanoseconds)
    }

    /// Call on every iteration. `progress` is a count of frames that reached the output;
    /// `waitingForDevice` says the loop waits on purpose. True when a beat happened.
    mutating func iterate(loop: EventLoop, progress: Int, waitingForDevice: Bool) -> Bool {
        let now = MonotonicClock.nowNanoseconds()
        guard loop.takeExpired(deadline, now: now) else { return false }
        loop.setDeadline(deadline, at: now + Self.intervalNanoseconds)
        let moved = progress != lastProgress
        lastProgress = progress
        guard moved || waitingForDevice else { return false }
        count += 1
        return true
    }
}
