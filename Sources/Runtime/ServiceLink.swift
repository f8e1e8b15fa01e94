import Backgrounds
import KernelIO
import Service

/// What the service manager hears from the loop: READY once the loop runs (camera and display
/// may still be away: STATUS says so, and the wait is a steady state, not a start that never
/// ends), WATCHDOG on every heartbeat (so a loop that stops beating is restarted), STOPPING at the end,
/// and STATUS, the line `systemctl status` shows a person: what the box waits for, or once it
/// shows frames its camera, display mode, the frame rate it reaches and the current backdrop.
/// Outside systemd (no NOTIFY_SOCKET) every message is a no-op and no status text is even built.
/// I/O thread only.
final class ServiceLink {
    /// How often the running line is rebuilt: its frame rate is measured over this period. One
    /// string and one datagram per period, never per frame.
    static let statusRefreshNanoseconds: UInt64 = 10_000_000_000

    private let notifier: ServiceNotifier
    private var readySent = false
    /// The first frame reached the output (the running line replaced the waiting one).
    private var showing = false
    private var failureSaid = false
    private var lastStatus = ""
    private var devices = ""
    private var backdrops: BackgroundLibrary?
    private var shown = 0
    private var measuredShown = 0
    private var measuredAt: UInt64 = 0

    /// The service manager `$NOTIFY_SOCKET` names, if any.
    convenience init() { self.init(notifier: Self.notifierFromEnvironment()) }

    /// Talks through `notifier` (tests hand in one bound to their own socket).
    init(notifier: consuming ServiceNotifier) {
        self.notifier = notifier
        if let interval = self.notifier.watchdogInterval, interval.pingEveryNanoseconds < Heartbeat.intervalNanoseconds {
            Log.warning("WatchdogSec is shorter than two heartbeats (\(Heartbeat.intervalNanoseconds / 1_000_000) ms each); expect restarts")
        }
        say("starting")
    }

    private static func notifierFromEnvironment() -> ServiceNotifier {
        do throws(ServiceSetupError) { return try ServiceNotifier.fromEnvironment() } catch {
            Log.warning("service manager not told how the box is: \(error.message)")
        }
        do throws(ServiceSetupError) { return try ServiceNotifier(notifySocket: nil, ownPID: 0) } catch {
            preconditionFailure("a notifier without a socket cannot fail")
        }
    }

    /// STATUS=waiting for WHAT (sent only when it changes), while no frame can be shown yet.
    func waiting(for what: @autoclosure () -> String) {
        guard notifier.isConnected else { return }
        say("waiting for \(what())")
    }

    /// What the running line names: the devices (camera and display mode, fixed for the run) and
    /// the backdrops, whose current name is read at each refresh.
    func running(devices: String, backdrops: BackgroundLibrary) {
        self.devices = devices
        self.backdrops = backdrops
    }

    /// A rescan replaced the backdrop set (SIGHUP); the running line names the new one's current.
    func backdropsReplaced(by backdrops: BackgroundLibrary) { self.backdrops = backdrops }

    /// READY, once: the event loop runs and serves everything, whatever waits for a device.
    func loopRunning() {
        guard !readySent else { return }
        readySent = true
        send { (notifier) throws(SystemError) in try notifier.ready() }
    }

    /// Call on every iteration: the running line once the first frame reached the output, then
    /// every `statusRefreshNanoseconds`.
    func framesShown(_ count: Int) {
        shown = count
        guard notifier.isConnected, count > 0 else { return }
        let now = MonotonicClock.nowNanoseconds()
        if !showing {
            showing = true
            measuredShown = count
            measuredAt = now
            say("showing: \(devices); backdrop \(backdrops?.currentName ?? "none")")
            return
        }
        guard now - measuredAt >= Self.statusRefreshNanoseconds else { return }
        let tenths = (count - measuredShown) * 10_000_000_000 / Int(now - measuredAt)
        measuredShown = count
        measuredAt = now
        say("showing: \(devices); \(tenths / 10).\(tenths % 10) fps; backdrop \(backdrops?.currentName ?? "none")")
    }

    func beat() {
        send { (notifier) throws(SystemError) in try notifier.watchdog() }
        // A loop that beats but shows nothing for a whole period waits for its camera.
        if showing, shown == measuredShown, notifier.isConnected,
           MonotonicClock.nowNanoseconds() - measuredAt >= Self.statusRefreshNanoseconds {
            measuredAt = MonotonicClock.nowNanoseconds()
            say("waiting for the camera: no frames for \(Self.statusRefreshNanoseconds / 1_000_000_000) s (\(devices))")
        }
    }

    func stopping() {
        send { (notifier) throws(SystemError) in try notifier.stopping() }
        say("stopping")
    }

    private func say(_ line: String) {
        guard notifier.isConnected, line != lastStatus else { return }
        lastStatus = line
        send { (notifier) throws(SystemError) in try notifier.status(line) }
    }

    /// A failed datagram is said once; the next beat tries again anyway.
    private func send(_ message: (borrowing ServiceNotifier) throws(SystemError) -> Void) {
        do throws(SystemError) { try message(notifier) } catch {
            if !failureSaid { Log.warning("service manager unreachable: \(error.message)") }
            failureSaid = true
        }
    }
}
