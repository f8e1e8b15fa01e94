import Buttons
import Controls
import KernelIO

/// The I/O thread's one loop for `backdrop run`: the only caller of the event loop's wait in the
/// booth, and the one place the signals are read, the heartbeat beats and the buttons are read.
/// On the devices `backdrop run` is three states of it: waiting for the display (`DisplayWait`),
/// waiting for the camera (`CameraWait`) and live (`DeviceSession`, which has a camera away of its
/// own); on files, live only (`LiveRun`). Each state asks `next` for the following wake and serves
/// what concerns it. A signal a state cannot carry out yet stays pending here for the next state
/// (a SIGHUP while the box waits for its TV reloads config and backdrops once the booth runs), so
/// nothing is dropped; TERM and INT end every state.
///
/// READY goes to the service manager at the first wait: the booth runs whether or not its camera
/// and display are there, STATUS says what it waits for, and the heartbeat feeds the watchdog while
/// it waits on purpose. I/O thread only.
final class RuntimeLoop {
    let events: EventLoop
    let service: ServiceLink
    private(set) var heartbeat: Heartbeat
    private let watch: SignalWatch
    private var pending = PendingSignals()
    private var buttons: ButtonControls? = nil
    private let buttonToken: UInt64
    private let buttonDeadline: EventLoop.DeadlineID
    private var buttonsReadable = false
    private var running = false

    init(signals: borrowing SignalChannel, service: ServiceLink) throws(CommandFailure) {
        do throws(SystemError) { events = try EventLoop() } catch {
            throw .runtime("cannot set up the event loop: \(error.message)")
        }
        self.service = service
        watch = try SignalWatch(signals, in: events)
        heartbeat = Heartbeat(loop: events)
        buttonToken = events.newToken()
        buttonDeadline = events.newDeadline()
    }

    /// Sleeps until the next wake: the only wait of `backdrop run`. `progress` counts frames that
    /// reached the output; `waitingForDevice` says the state waits on purpose (the heartbeat beats
    /// then without frames). Returns the ready tokens other than the loop's own; the signals read
    /// are pending until a state takes them.
    func next(_ signals: borrowing SignalChannel, progress: Int, waitingForDevice: Bool) -> UInt64 {
        if !running {
            running = true
            service.loopRunning()
        }
        let ready = events.wait()
        if heartbeat.iterate(loop: events, progress: progress, waitingForDevice: waitingForDevice) { service.beat() }
        let arrived = watch.pending(ready, signals)
        if let stop = arrived.stop, pending.stop == nil { pending.stop = stop }
        pending.reload = pending.reload || arrived.reload
        pending.statistics = pending.statistics || arrived.statistics
        pending.screenCapture = pending.screenCapture || arrived.screenCapture
        buttonsReadable = ready & buttonToken != 0
        return ready & ~(watch.token | buttonToken)
    }

    /// TERM or INT arrived: every state ends.
    var stopSignal: Int32? { pending.stop }

    /// Whether a SIGHUP is pending, taken (the state that carries it out takes it).
    func takeReload() -> Bool {
        defer { pending.reload = false }
        return pending.reload
    }

    /// Whether a SIGHUP is pending, left pending for a later state.
    var reloadPending: Bool { pending.reload }

    /// A SIGHUP taken by a state that could not carry all of it out goes back for the next one.
    func deferReload() { pending.reload = true }

    /// Whether a SIGUSR1 is pending, taken.
    func takeStatistics() -> Bool {
        defer { pending.statistics = false }
        return pending.statistics
    }

    /// Whether a SIGUSR2 is pending, taken.
    func takeScreenCapture() -> Bool {
        defer { pending.screenCapture = false }
        return pending.screenCapture
    }

    /// The buttons join the loop: from now on their edges wake it (nil: no buttons).
    func attach(_ buttons: ButtonControls?) {
        guard let buttons else { return }
        do throws(SystemError) {
            try buttons.withDescriptor { (fd) throws(SystemError) in try events.watch(fd, token: buttonToken) }
        } catch {
            Log.warning("buttons not watched: \(error.message)")
        }
        self.buttons = buttons
    }

    var hasButtons: Bool { buttons != nil }

    /// What the buttons did since the last wake (their edges, a press held past its time), each
    /// intent with how long its press lasted. Call once per wake.
    func pollButtons(_ act: (ButtonIntent, UInt64) -> Void) {
        guard let buttons else { return }
        _ = events.takeExpired(buttonDeadline, now: MonotonicClock.nowNanoseconds())
        buttons.poll(readable: buttonsReadable, failed: { Log.warning("buttons: \($0.message)") }, act)
        buttonsReadable = false
        events.setDeadline(buttonDeadline, at: buttons.nextDeadline)
    }
}
