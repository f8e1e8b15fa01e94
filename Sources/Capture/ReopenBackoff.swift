/// When to try reopening a disconnected camera: at once, then after doubling delays up to a cap,
/// so an unplugged camera costs a few opens a minute rather than a busy loop. The caller's loop
/// asks `isDue` with the monotonic clock; nothing here sleeps.
public struct ReopenBackoff: Equatable, Sendable {
    public let initialNanoseconds: UInt64
    public let maximumNanoseconds: UInt64
    public private(set) var delayNanoseconds: UInt64
    public private(set) var nextAttemptAt: UInt64 = 0
    public private(set) var attempts: Int = 0

    public init(initialNanoseconds: UInt64 = 250_000_000, maximumNanoseconds: UInt64 = 8_000_000_000) {
        self.initialNanoseconds = initialNanoseconds
        self.maximumNanoseconds = maximumNanoseconds
        self.delayNanoseconds = initialNanoseconds
    }

    public func isDue(now: UInt64) -> Bool { now >= nextAttemptAt }

    /// Records a failed attempt made at `now` and schedules the next one.
    public mutating func failed(now: UInt64) {
        attempts += 1
        nextAttemptAt = now + delayNanoseconds
        delayNanoseconds = min(delayNanoseconds * 2, maximumNanoseconds)
    }

    /// The camera is back: the next disconnect starts from the short delay again.
    public mutating func succeeded() {
        attempts = 0
        nextAttemptAt = 0
        delayNanoseconds = initialNanoseconds
    }
}
