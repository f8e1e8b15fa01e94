import CKernel

/// TERM, INT, HUP, USR1 and USR2 delivered as readable events on a signalfd instead of handlers, so
/// the I/O thread handles them in its loop. Create it before starting any thread: the signals are
/// blocked in the creating thread and every thread started after inherits that.
public struct SignalChannel: ~Copyable {
    public static let terminate = Int32(BK_SIGTERM)
    public static let interrupt = Int32(BK_SIGINT)
    public static let hangUp = Int32(BK_SIGHUP)
    public static let user1 = Int32(BK_SIGUSR1)
    public static let user2 = Int32(BK_SIGUSR2)

    private let fd: Int32

    public init() throws(SystemError) {
        let signals: [Int32] = [Self.terminate, Self.interrupt, Self.hangUp, Self.user1, Self.user2]
        let fd = signals.withUnsafeBufferPointer { bk_signalfd_for($0.baseAddress, Int32($0.count)) }
        guard fd >= 0 else { throw SystemError("signalfd") }
        self.fd = fd
    }

    /// The next pending signal number, or nil when none is pending. Never blocks.
    public func next() -> Int32? {
        let signal = bk_signalfd_read(fd)
        return signal > 0 ? signal : nil
    }

    /// Reads every pending signal without blocking.
    public func drain() -> PendingSignals {
        var pending = PendingSignals()
        while let signal = next() {
            switch signal {
            case Self.hangUp: pending.reload = true
            case Self.user1: pending.statistics = true
            case Self.user2: pending.screenCapture = true
            default: pending.stop = signal
            }
        }
        return pending
    }

    /// Lends the fd (for an epoll set); it stays owned by the channel.
    public func withRawValue<R, E: Error>(_ body: (Int32) throws(E) -> R) throws(E) -> R { try body(fd) }

    deinit { _ = bk_close(fd) }
}
