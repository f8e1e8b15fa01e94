import KernelIO
import Scanout

/// Opens the display, waiting in the event loop while nothing is plugged in: one try per
/// `retryNanoseconds` on the loop's timer, signals served meanwhile (TERM/INT end the wait).
enum DisplayWait {
    static let retryNanoseconds: UInt64 = 500_000_000

    /// The sink, or nil when a signal asked to stop first.
    static func open(_ options: KMSSinkOptions, loop: EventLoop, signals: borrowing SignalChannel,
                     watch: SignalWatch, heartbeat: inout Heartbeat, service: ServiceLink) throws(CommandFailure) -> KMSSink? {
        let retry = loop.newDeadline()
        defer { loop.setDeadline(retry, at: nil) }
        var told = false
        while true {
            do throws(ScanoutError) { return try KMSSink(options: options) } catch {
                guard error == .noDisplayConnected else { throw .runtime(error.message) }
            }
            if !told {
                Log.info("no display connected; waiting for one (plug in HDMI)")
                service.waiting(for: "a display (plug in HDMI)")
                told = true
            }
            loop.setDeadline(retry, at: MonotonicClock.nowNanoseconds() + retryNanoseconds)
            while loop.deadline(retry) != nil {
                let ready = loop.wait()
                if heartbeat.iterate(loop: loop, progress: 0, waitingForDevice: true) { service.beat() }
                if let signal = watch.pending(ready, signals).stop {
                    Log.info("stopping on signal \(signal)")
                    return nil
                }
                _ = loop.takeExpired(retry, now: MonotonicClock.nowNanoseconds())
            }
        }
    }
}
