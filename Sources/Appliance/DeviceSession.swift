import Backgrounds
import Capture
import Controls
import Frames
import KernelIO
import Matte
import Pipeline
import Scanout
import Settings

/// The live loop on real devices once display and cameras are open: frames through the runner,
/// buttons, signals, photos and the heartbeat on the one event loop; a camera that goes away
/// gets a notice on screen and is reopened on the back-off's deadlines until it returns.
/// I/O thread only.
final class DeviceSession {
    private let runner: PipelineRunner<V4L2Source, KMSSink>
    private let loop: EventLoop
    private var settings: Settings
    private let configPath: String
    private let backdrops: BackgroundLibrary
    private let buttons: ButtonControls?
    private let layer: Bool
    private var heartbeat: Heartbeat
    private let service: ServiceLink
    private var photo: ScreenPhoto
    private var camera: CameraLink
    private let buttonToken: UInt64
    private let buttonDeadline: EventLoop.DeadlineID
    private var stopping = false
    private var cameraAway = false
    private var noticeShown = false
    private var modesetFailureSaid = false
    private let started = MonotonicClock.nowNanoseconds()

    init(runner: PipelineRunner<V4L2Source, KMSSink>, settings: Settings, configPath: String,
         backdrops: BackgroundLibrary, buttons: ButtonControls?, layer: Bool, heartbeat: Heartbeat,
         service: ServiceLink) {
        self.service = service
        self.runner = runner
        loop = runner.loop
        self.settings = settings
        self.configPath = configPath
        self.backdrops = backdrops
        self.buttons = buttons
        self.layer = layer
        self.heartbeat = heartbeat
        photo = ScreenPhoto(loop: runner.loop)
        camera = CameraLink(loop: runner.loop)
        buttonToken = runner.loop.newToken()
        buttonDeadline = runner.loop.newDeadline()
        if let buttons {
            do throws(SystemError) {
                try buttons.withDescriptor { (fd) throws(SystemError) in try runner.loop.watch(fd, token: buttonToken) }
            } catch {
                Log.warning("buttons not watched: \(error.message)")
            }
        }
    }

    func run(signals: borrowing SignalChannel, watch: SignalWatch, frames: Int) {
        while !stopping {
            let ending = runner.run(frameLimit: frames) { ready in
                self.iterate(ready, signals: signals, watch: watch)
                return !self.stopping
            }
            guard ending == .disconnected, !stopping else { break }
            Log.warning("camera disconnected; showing the notice and reopening it when it returns")
            cameraAway = true
            noticeShown = false
            while cameraAway && !stopping {
                if !noticeShown { noticeShown = showNotice() }
                reopenIfDue()
                if !cameraAway || stopping { break }
                let ready = loop.wait()
                runner.service()
                iterate(ready & ~runner.tokens, signals: signals, watch: watch)
            }
            if frames > 0 && runner.pairsHandedOff >= frames { break }
        }
        service.stopping()
        runner.stop()
        StandardOutput.line(report)
        if let summary = runner.finishSink() { Log.info(summary) }
    }

    private var report: String {
        LiveRun.report(runner.statistics, loop: loop, heartbeat: heartbeat, since: started) + "\n"
            + runner.withSource { $0.statisticsSummary }
    }

    /// Everything but frames, after every wake of the loop.
    private func iterate(_ ready: UInt64, signals: borrowing SignalChannel, watch: SignalWatch) {
        if heartbeat.iterate(loop: loop, progress: runner.presented, waitingForDevice: cameraAway) { service.beat() }
        service.framesShown(runner.presented)
        let pending = watch.pending(ready, signals)
        if pending.statistics { StandardOutput.line(report) }
        if pending.reload, let reloaded = ConfigReload.load(configPath, current: settings) {
            settings = reloaded
            runner.publish { $0.matte = reloaded.matte }
        }
        if let signal = pending.stop {
            Log.info("stopping on signal \(signal)")
            stopping = true
            return
        }
        if let buttons {
            _ = loop.takeExpired(buttonDeadline, now: MonotonicClock.nowNanoseconds())
            buttons.poll(readable: ready & buttonToken != 0) { act($0) }
            loop.setDeadline(buttonDeadline, at: buttons.nextDeadline)
        }
        photo.iterate(ready, runner: runner, directory: settings.photos.directory)
        sayModesetFailure()
    }

    private func act(_ intent: ButtonIntent) {
        Log.info("button: \(intent.name)")
        switch intent {
        case .nextBackdrop, .previousBackdrop:
            if intent == .nextBackdrop { backdrops.next() } else { backdrops.previous() }
            // A file changed or removed since the load shows as the gradient; say which, once.
            for problem in backdrops.takeProblems() { Log.warning(problem) }
            let backdrop = backdrops.current
            runner.publish { $0.backdrop = backdrop }
            // On screen already: a torn frame at the switch is accepted.
            if layer { runner.withSink { NoticeScreen.copy(backdrop, into: $0.backdropView) } }
            if cameraAway { noticeShown = false }
        case .toggleMatteView:
            runner.publish { $0.showMatte.toggle() }
        case .takePhoto:
            photo.shutter(runner, directory: settings.photos.directory)
        }
    }

    private func showNotice() -> Bool {
        let backdrop = backdrops.current
        return runner.showStill { view in
            NoticeScreen.draw("CAMERA DISCONNECTED", into: view, backdrop: backdrop, layer: layer)
        }
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
        cameraAway = false
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
