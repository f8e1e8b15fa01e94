import Backgrounds
import Booth
import Capture
import Compose
import Controls
import Frames
import Import
import KernelIO
import Looks
import Matte
import Pipeline
import Scanout
import Settings

/// The live loop on real devices once display and cameras are open: frames through the runner;
/// buttons, device losses, deadlines and the photo writer's results fed to the `BoothMachine`,
/// whose actions are carried out here (messages into the compose pass's message slot, the photo
/// through `ShutterCapture`, backdrops through `LiveBackdrops`, the matte view as a generation);
/// signals (SIGUSR2: `ScreenCapture`). The runtime loop's live state: its wake also serves the
/// pipeline; a camera that goes away gets a still with the booth's message while it is reopened
/// on the back-off's deadlines. I/O thread only.
final class DeviceSession {
    private let runner: PipelineRunner<V4L2Source, KMSSink>
    private let runtime: RuntimeLoop
    private let loop: EventLoop
    private var settings: Settings
    private let configPath: String
    private let backdrops: LiveBackdrops
    private let layer: Bool
    private let service: ServiceLink
    private let messages: MessageSlot
    private let shutter: ShutterCapture
    private let screens: ScreenCapture?
    private let importNotices: ImportNoticeWatch
    private var booth: BoothMachine
    private var actions: [BoothAction] = []
    private var camera: CameraLink
    private let boothDeadline: EventLoop.DeadlineID
    private var stopping = false
    /// The rollback gesture's switch while the backdrop worker runs it.
    private var rollback: BoothRollback.Task? = nil
    private var cameraAway = false
    private var displayAway = false
    /// What the message slot says now (the camera-away still draws it too).
    private var messageText = ""
    private var noticeShown = false
    private var modesetFailureSaid = false
    private let started = MonotonicClock.nowNanoseconds()
    private let shutdown: ShutdownSteps
    private let displayAwayProbe: DisplayAwayProbe?
    /// The look gesture's cycle (issue 37's hook: `.switchLook` publishes the next one).
    private let looks: LookCycle

    /// `importNotices`: made when the run started, so outcomes written while the box waited for
    /// its devices are news here (the camera wait may have shown some: `ImportNoticeWatch.carry`).
    init(runner: PipelineRunner<V4L2Source, KMSSink>, runtime: RuntimeLoop, settings: Settings, configPath: String,
         backdrops: LiveBackdrops, importNotices: ImportNoticeWatch, layer: Bool, messages: MessageSlot,
         shutter: ShutterCapture, screens: ScreenCapture?, options: RuntimeOptions, shutdown: ShutdownSteps) {
        self.runtime = runtime
        service = runtime.service
        self.shutdown = shutdown
        self.runner = runner
        loop = runtime.events
        self.settings = settings
        self.configPath = configPath
        self.backdrops = backdrops
        self.layer = layer
        self.messages = messages
        self.shutter = shutter
        self.screens = screens
        self.importNotices = importNotices
        booth = BoothMachine(configuration: BoothConfiguration(countdownSeconds: settings.photos.countdownSeconds))
        looks = LookCycle(settings.looks)
        let startLook = looks.current.peopleColour
        runner.publish { $0.peopleLook = startLook }
        actions.reserveCapacity(8)
        camera = CameraLink(loop: runtime.events)
        boothDeadline = runtime.events.newDeadline()
        displayAwayProbe = DisplayAwayProbe.from(options)
        if let hold = ImportNoticeHold.from(options) { booth.configuration.importSummaryNanoseconds = hold }
    }

    /// Until a stop signal, the source's end, or `frames` pairs (0: no limit) are out. Each wake:
    /// the pipeline first, then everything else; while the camera is away the pipeline has no
    /// frames to serve, only flips.
    func run(signals: borrowing SignalChannel, frames: Int) {
        runner.limitFrames(to: frames)
        var ready: UInt64 = 0
        var woke = false
        while true {
            if let ending = runner.serve(ready), !cameraAway {
                // Ended, or the frame limit reached with its frames out: only a lost camera goes on.
                guard ending == .disconnected else { break }
                Log.warning("camera disconnected; showing the notice and reopening it when it returns")
                feed(.deviceLost(.camera))
            }
            if woke { iterate(ready & ~runner.tokens) }
            if stopping { break }
            if cameraAway {
                if !noticeShown { noticeShown = showNotice() }
                reopenIfDue()
            }
            runner.prepareWait()
            ready = runtime.next(signals, progress: runner.presented, waitingForDevice: cameraAway || displayAway)
            woke = true
        }
        service.stopping()
        runner.stop()
        shutdown.mark("compute")
        backdrops.stop(waiting: !stopping)
        shutdown.mark("backdrop reader")
        screens?.stop()
        shutdown.mark("screen writer")
        StandardOutput.line(report)
        if let summary = runner.finishSink() { Log.info(summary) }
        shutdown.mark("statistics")
    }

    private var report: String {
        LiveRun.report(runner.statistics, loop: loop, heartbeat: runtime.heartbeat, since: started) + "\n"
            + runner.withSource { $0.statisticsSummary }
    }

    /// Everything but frames, after every wake of the loop.
    private func iterate(_ ready: UInt64) {
        service.framesShown(runner.presented)
        if runtime.takeStatistics() { StandardOutput.line(report) }
        if runtime.takeReload() { reload() }
        // The next commit carries the capture; with no camera frames that is the still, drawn again.
        if runtime.takeScreenCapture(), let screens, screens.request(runner, photoBusy: shutter.holdsWriteback), cameraAway {
            noticeShown = false
        }
        if let signal = runtime.stopSignal {
            shutdown.begin()
            Log.info("stopping on signal \(signal)")
            stopping = true
            return
        }
        runtime.pollButtons { intent, pressed in
            Log.info("button: \(intent.name) (\(pressed / 1_000_000) ms)")
            feed(.button(intent))
        }
        if let input = shutter.iterate(ready, runner: runner) { feed(input) }
        screens?.iterate(ready, runner: runner)
        if let notice = backdrops.iterate(ready, runner: runner) {
            service.backdropsReplaced(by: backdrops.library)
            if let shown = importNotices.rescanNotice(notice) { feed(.notice(shown)) } else { Log.info("after the import: \(notice)") }
            if cameraAway { noticeShown = false }
        }
        if backdrops.takeFinishedTask() != nil, let task = rollback {
            rollback = nil
            if let outcome = task.outcome { finishRollback(outcome) }
        }
        if loop.takeExpired(boothDeadline, now: MonotonicClock.nowNanoseconds()) { feed(.timer) }
        watchDisplay()
    }

    /// SIGHUP. Contract with the USB import (`backdrop-import@.service`, `ImportNotice`): after
    /// every step of a stick's visit (import, photo export, unmount), whatever its outcome, the
    /// import service sends SIGHUP to backdrop.service. New outcomes in DIR/import-outcome,
    /// DIR/export-outcome and DIR/unmount-outcome are shown first, in that order; only a new
    /// generation (the import's status 0) changed DIR/current, so only then, or on a SIGHUP with
    /// no new outcome (a rollback, a person), does this handler read the config file again AND
    /// rescan the backdrop folder (both through the `current` link, so both come from the new
    /// generation). A refused config keeps the previous
    /// settings (and still rescans the folder they name); a folder with no usable image keeps the
    /// set shown. Either way the outcome is shown on screen (after an import, the import's text
    /// rather than the rescan's count). Nothing here waits: the folder is read on its own thread,
    /// the new set is taken by compute at a frame boundary.
    private func reload() {
        let shownWhileWaiting = importNotices.takeCarried()
        let notices = importNotices.takeNew()
        for notice in notices { feed(.importReported(notice.text, failed: notice.failed)) }
        guard ImportNoticeSeen.reloads(after: shownWhileWaiting + notices) else { return }
        if let reloaded = ConfigReload.load(configPath, current: settings) {
            settings = reloaded
            runner.publish { $0.matte = reloaded.matte }
            booth.configuration.countdownSeconds = reloaded.photos.countdownSeconds
        } else {
            feed(.notice("CONFIG REFUSED: SEE THE LOG"))
        }
        if let refused = backdrops.rescan(settings, outputSize: runner.withSink { $0.outputSize }) {
            feed(.notice(refused))
        } else if !notices.isEmpty || !shownWhileWaiting.isEmpty {
            importNotices.holdRescanNotice()
        }
    }

    /// Hands one input to the booth and carries out its actions in order. (Collected first: an
    /// action may itself feed the booth, which must not happen inside its `handle`.)
    private func feed(_ input: BoothInput) {
        actions.removeAll(keepingCapacity: true)
        booth.handle(input, at: MonotonicClock.nowNanoseconds()) { actions.append($0) }
        let taken = actions
        for action in taken { perform(action) }
    }

    private func perform(_ action: BoothAction) {
        switch action {
        case .showMessage(let message, _):
            // The expiry is the booth's own deadline (armDeadline follows); the slot just holds the text.
            messageText = message.text(backdropName: backdrops.currentName, lookName: looks.current.name)
            messages.publish(messageText, style: message.isLarge ? .countdown : .caption)
            // Compose draws messages; a camera buffer shown as it is could not carry this one.
            runner.composesCameraView = true
            if cameraAway { noticeShown = false }
        case .clearMessage:
            messageText = ""
            messages.clear()
            runner.composesCameraView = false
            if cameraAway { noticeShown = false }
        case .armDeadline(let at):
            loop.setDeadline(boothDeadline, at: at)
        case .disarmDeadline:
            loop.setDeadline(boothDeadline, at: nil)
        case .captureShownFrame:
            screens?.abandon(runner)
            shutter.begin(runner)
            // A refusal (no photos folder, a photo still saving) is known at once.
            if let input = shutter.iterate(0, runner: runner) { feed(input) }
        case .startEncode:
            shutter.startEncode()
        case .switchBackdrop(let step):
            backdrops.step(step, runner: runner)
            if cameraAway { noticeShown = false }
        case .switchLook:
            looks.next()
            let colour = looks.current.peopleColour
            runner.publish { $0.peopleLook = colour }
        case .setMatteView(let on):
            runner.publish { $0.showMatte = on }
        case .setCameraView(let on):
            runner.publish { $0.showCamera = on }
        case .rollback:
            // The rollback gesture: switched back on the backdrop worker (see `iterate`), then
            // reloaded as after SIGHUP. Without a worker, here.
            guard rollback == nil else { break }
            let task = BoothRollback.Task(configPath: configPath)
            if backdrops.run(task, runner: runner) { rollback = task } else { finishRollback(BoothRollback.run(configPath: configPath)) }
        case .startReopening(let device):
            switch device {
            case .camera: cameraAway = true; noticeShown = false
            // KMSSink sets a re-plugged display up again by itself (checked once a second on submit).
            case .display: break
            }
        }
    }

    /// The rollback's outcome to the booth; a switched generation is reloaded as after SIGHUP.
    private func finishRollback(_ outcome: BoothInput) {
        if case .importFinished = outcome { reload() }
        feed(outcome)
    }

    /// The display as the booth sees it: gone while KMSSink says the connector is unplugged.
    private func watchDisplay() {
        if let away = displayAwayProbe?.away(now: MonotonicClock.nowNanoseconds()) {
            runner.withSink { $0.simulatesUnplug = away }
        }
        let connected = runner.withSink { $0.connected }
        if connected == displayAway {
            displayAway = !connected
            Log.info(connected ? "display back" : "display unplugged")
            feed(connected ? .deviceBack(.display) : .deviceLost(.display))
        }
        sayModesetFailure()
    }

    /// No camera frames are composed while it is away, so the message is drawn into a still.
    private func showNotice() -> Bool {
        let backdrop = backdrops.library.current
        let text = messageText
        return runner.showStill { view in NoticeScreen.draw(text, into: view, backdrop: backdrop, layer: layer) }
    }

    private func reopenIfDue() {
        guard camera.isDue(now: MonotonicClock.nowNanoseconds()) else { return }
        let outcome: CaptureError?? = runner.reopenSource { source -> CaptureError? in
            do throws(CaptureError) { try source.reopen() } catch { return error }
            return nil
        }
        guard let failure = outcome else { return }  // compute still held a frame: next wake
        if let failure {
            camera.failed(failure, what: "camera reopen", loop: loop)
            return
        }
        if let error = runner.watchFailure { Log.warning("camera back but not watched: \(error.message)") }
        camera.succeeded(loop: loop)
        // The reopened camera has new buffers: the display is offered those for the camera view.
        runner.withSource { source in runner.withSink { CameraViewPath.offer(source: source, sink: $0) } }
        cameraAway = false
        feed(.deviceBack(.camera))
        Log.info("camera back: \(runner.withSource { $0.summary })")
    }

    /// A re-plugged display that could not be set up again is said once, with the reason.
    private func sayModesetFailure() {
        let failure = runner.withSink { $0.modesetFailure }
        if let failure, !modesetFailureSaid {
            Log.warning("display re-plugged but not set up again: \(failure.message); retrying every second")
            modesetFailureSaid = true
        } else if failure == nil {
            modesetFailureSaid = false
        }
    }
}
