import Capture
import KernelIO

/// When to try the camera again and what to say about it: attempts at once, then on the
/// back-off's doubling delays (a deadline in the event loop, never a sleep), and each distinct
/// failure said once with its cause (which node, which errno, what was asked and offered), so
/// a camera that stays away is explained without repeating the same line every few seconds.
struct CameraLink {
    private var backoff = ReopenBackoff()
    private var lastFailure: String? = nil
    let deadline: EventLoop.DeadlineID

    init(loop: EventLoop) { deadline = loop.newDeadline() }

    /// Whether an attempt is due now (the first one is).
    func isDue(now: UInt64) -> Bool { backoff.isDue(now: now) }

    /// Records a failed attempt, says it when it differs from the last one, and sets the next
    /// attempt's deadline.
    mutating func failed(_ error: CaptureError, what: String, loop: EventLoop) {
        let now = MonotonicClock.nowNanoseconds()
        let message = error.message
        if message != lastFailure {
            Log.warning("\(what): \(message); retrying until it works")
            lastFailure = message
        }
        backoff.failed(now: now)
        loop.setDeadline(deadline, at: backoff.nextAttemptAt)
    }

    /// The camera works again: the next loss starts from the short delay and is said again.
    mutating func succeeded(loop: EventLoop) {
        backoff.succeeded()
        lastFailure = nil
        loop.setDeadline(deadline, at: nil)
    }
}
