import KernelIO
import Service

/// What the service manager hears from the loop: READY once the first frame is on screen,
/// WATCHDOG on every heartbeat (so a loop that stops beating is restarted), STOPPING at the end.
/// Outside systemd (no NOTIFY_SOCKET) every message is a no-op. I/O thread only.
final class ServiceLink {
    private let notifier: ServiceNotifier
    private var readySent = false
    private var failureSaid = false

    init() {
        do throws(ServiceSetupError) { notifier = try ServiceNotifier.fromEnvironment() } catch {
            Log.warning("service manager not told how the box is: \(error.message)")
            do throws(ServiceSetupError) { notifier = try ServiceNotifier(notifySocket: nil, ownPID: 0) } catch {
                preconditionFailure("a notifier without a socket cannot fail")
            }
        }
        if let interval = notifier.watchdogInterval, interval.pingEveryNanoseconds < Heartbeat.intervalNanoseconds {
            Log.warning("WatchdogSec is shorter than two heartbeats (\(Heartbeat.intervalNanoseconds / 1_000_000) ms each); expect restarts")
        }
    }

    /// Call on every iteration: READY after the first frame reached the output.
    func framesShown(_ count: Int) {
        guard !readySent, count > 0 else { return }
        readySent = true
        send { (notifier) throws(SystemError) in try notifier.ready() }
    }

    func beat() { send { (notifier) throws(SystemError) in try notifier.watchdog() } }

    func stopping() { send { (notifier) throws(SystemError) in try notifier.stopping() } }

    /// A failed datagram is said once; the next beat tries again anyway.
    private func send(_ message: (borrowing ServiceNotifier) throws(SystemError) -> Void) {
        do throws(SystemError) { try message(notifier) } catch {
            if !failureSaid { Log.warning("service manager unreachable: \(error.message)") }
            failureSaid = true
        }
    }
}
