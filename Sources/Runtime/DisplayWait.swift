import KernelIO
import Scanout

/// The runtime loop's first state on the devices: the display is opened, and while nothing is
/// plugged in it is tried again every `retryNanoseconds` on the loop's timer. Steady: READY was
/// sent, STATUS says what the box waits for, the heartbeat feeds the watchdog. TERM/INT end the
/// wait; HUP, USR1 and USR2 stay pending for the states after it.
enum DisplayWait {
    static let retryNanoseconds: UInt64 = 500_000_000

    /// The display `attempt` opened, or nil when a signal asked to stop first. An attempt that
    /// fails other than with `.noDisplayConnected` ends the run.
    static func open<Display>(loop: RuntimeLoop, signals: borrowing SignalChannel,
                              _ attempt: () throws(ScanoutError) -> Display) throws(CommandFailure) -> Display? {
        let retry = loop.events.newDeadline()
        defer { loop.events.setDeadline(retry, at: nil) }
        var told = false
        while true {
            do throws(ScanoutError) { return try attempt() } catch {
                guard error == .noDisplayConnected else { throw .runtime(error.message) }
            }
            if !told {
                Log.info("no display connected; waiting for one (plug in HDMI)")
                loop.service.waiting(for: "a display (plug in HDMI)")
                told = true
            }
            loop.events.setDeadline(retry, at: MonotonicClock.nowNanoseconds() + retryNanoseconds)
            while loop.events.deadline(retry) != nil {
                _ = loop.next(signals, progress: 0, waitingForDevice: true)
                if let signal = loop.stopSignal {
                    Log.info("stopping on signal \(signal)")
                    return nil
                }
                if loop.takeStatistics() { StandardOutput.line("waiting for a display: no frames yet") }
                _ = loop.events.takeExpired(retry, now: MonotonicClock.nowNanoseconds())
            }
        }
    }
}
