import Backgrounds
import Capture
import Compose
import Controls
import Frames
import ImageCodec
import KernelIO
import Matte
import Pipeline
import Scanout
import Settings

/// `source = v4l2`, `sink = kms`: the appliance on real devices. The display is opened first (and
/// waited for), so the box can say what is wrong on screen; then the buttons and the cameras.
/// The camera going away keeps the loop alive: a notice is shown and the camera is reopened
/// with back-off until it returns.
enum DeviceRun {
    static func run(settings: Settings, configPath: String, assembly: PipelineAssembly, backdrops initialBackdrops: BackgroundLibrary,
                    signals: borrowing SignalChannel, frames: Int) throws(CommandFailure) {
        guard settings.output.sink == .kms else {
            throw .invalidInput("[camera] source = v4l2 needs [output] sink = kms in this build")
        }
        var stopping = false
        let sink: KMSSink
        do throws(ScanoutError) {
            sink = try KMSSink.open(options: sinkOptions(settings.output),
                                    waiting: { Log.info("no display connected; waiting for one (plug in HDMI)") },
                                    keepWaiting: {
                                        handleSignals(signals, stopping: &stopping, statistics: nil)
                                        return !stopping
                                    })
        } catch {
            throw .runtime(error.message)
        }
        Log.info(sink.summary)
        // Backdrops are prescaled once to the mode the display granted.
        let backdrops = initialBackdrops.outputSize == sink.outputSize ? initialBackdrops
            : BackdropChoice.library(settings: settings, outputSize: sink.outputSize)
        let blendsOnDisplay: Bool
        if case .plane = sink.blend { blendsOnDisplay = true } else { blendsOnDisplay = false }
        if blendsOnDisplay { copyBackdrop(backdrops.current, into: sink.backdropView) }
        let buttons = ButtonControls.open(settings.buttons)

        var opened: V4L2Source? = nil
        var backoff = ReopenBackoff()
        while opened == nil && !stopping {
            do throws(CaptureError) {
                opened = try V4L2Source(configuration: sourceConfiguration(settings.camera))
            } catch {
                if backoff.attempts == 0 { Log.warning("camera: \(error.message); retrying until one appears") }
                backoff.failed(now: MonotonicClock.nowNanoseconds())
                showNotice("NO CAMERA", sink: sink, backdrop: backdrops.current, layer: blendsOnDisplay)
                sleepUntilDue(&backoff, signals: signals, stopping: &stopping)
            }
        }
        guard let source = opened else { return }
        Log.info(source.summary)
        // The I/O thread sleeps in one place: both cameras, the signals and the buttons. (The
        // display's flip events are read by the presenting thread, see KMSSink.)
        let events = try makeEventSet(source: source, signals: signals, buttons: buttons)
        let tolerance = settings.sync.toleranceNanoseconds(fps: source.frameRate)
        let processor = try assembly.makeProcessor(colorFormat: source.colorFormat, colorSize: source.colorSize,
                                                   depthSize: source.depthSize, outputSize: sink.outputSize,
                                                   fit: settings.background.fit, matte: settings.matte,
                                                   projection: DepthRegistration.projection(
                                                       camera: settings.camera, depthSize: source.depthSize,
                                                       colorSize: source.colorSize))
        processor.setWritesLayer(blendsOnDisplay)
        let runner = try assembly.startRunner(source: source, sink: sink, processor: processor, pacing: .live,
                                              syncToleranceNanoseconds: tolerance, backdrops: backdrops)
        if assembly.realtimePriority > 0 && (runner.computeRefusedRealtime || processor.refusedRealtime) {
            Log.warning("real-time priority was not permitted (needs CAP_SYS_NICE or root); running at normal priority")
        }
        Log.info("running: matte \(settings.matte.mode.name), blend \(blendsOnDisplay ? "on the display" : "on the CPU"), "
                 + "\(processor.bandCount) compute band(s)")

        var current = settings
        // A photo is the writeback capture of the first frame shown after the press.
        var photoArmed: (presented: Int, at: UInt64)? = nil
        func act(_ intent: ButtonIntent) {
            Log.info("button: \(intent.name)")
            switch intent {
            case .nextBackdrop, .previousBackdrop:
                if intent == .nextBackdrop { backdrops.next() } else { backdrops.previous() }
                if blendsOnDisplay {
                    runner.withIdleSink { sink in copyBackdrop(backdrops.current, into: sink.backdropView) }
                }
            case .toggleMatteView:
                processor.setMatteView(!processor.matteViewShown)
            case .takePhoto:
                if runner.withIdleSink({ sink in sink.armWriteback() }) {
                    photoArmed = (runner.statistics.presented, MonotonicClock.nowNanoseconds())
                } else {
                    savePhoto(runner: runner, directory: current.photos.directory, fromWriteback: false)
                }
            }
        }
        func finishPhoto() {
            guard let armed = photoArmed else { return }
            if runner.statistics.presented == armed.presented {
                // No camera frame yet: after a moment, show the last one again to carry the capture.
                guard MonotonicClock.nowNanoseconds() - armed.at > 300_000_000 else { return }
                runner.presentLastFrameAgain()
            }
            photoArmed = nil
            savePhoto(runner: runner, directory: current.photos.directory, fromWriteback: true)
        }
        while !stopping {
            let ending = runner.run(frameLimit: frames, waitForInput: { timeout in
                _ = events.wait(timeoutMilliseconds: Int32(timeout / 1_000_000))
            }) {
                handleSignals(signals, stopping: &stopping, statistics: runner.statistics) {
                    current = LiveRun.reload(configPath, current: current, processor: processor)
                }
                if stopping { return false }
                finishPhoto()
                buttons?.poll(act)
                return true
            }
            guard ending == .disconnected, !stopping else { break }
            Log.warning("camera disconnected; showing the notice and reopening it when it returns")
            var reopenBackoff = ReopenBackoff()
            while !stopping {
                // The box stays responsive while it waits: signals, buttons, the notice on screen.
                handleSignals(signals, stopping: &stopping, statistics: runner.statistics) {
                    current = LiveRun.reload(configPath, current: current, processor: processor)
                }
                if stopping { break }
                buttons?.poll(act)
                runner.presentBetweenFrames { view in
                    drawNotice("CAMERA DISCONNECTED", into: view, backdrop: backdrops.current, layer: blendsOnDisplay)
                }
                if photoArmed != nil {
                    photoArmed = nil
                    savePhoto(runner: runner, directory: current.photos.directory, fromWriteback: true)
                }
                guard reopenBackoff.isDue(now: MonotonicClock.nowNanoseconds()) else {
                    MonotonicClock.sleep(nanoseconds: 100_000_000)
                    continue
                }
                let back = runner.withIdleSource { source -> Bool in
                    do throws(CaptureError) { try source.reopen() } catch { return false }
                    do throws(SystemError) { try register(source, in: events) } catch {
                        Log.warning("camera back but not watched: \(error.message)")
                    }
                    return true
                }
                if back { Log.info("camera back: \(runner.withIdleSource { $0.summary })"); break }
                reopenBackoff.failed(now: MonotonicClock.nowNanoseconds())
            }
            if frames > 0 && runner.pairsHandedOff >= frames { break }
        }
        runner.stop()
        StandardOutput.line(runner.statistics.report)
        if let summary = runner.finishSink() { Log.info(summary) }
    }

    static let cameraToken: UInt64 = 1
    static let signalToken: UInt64 = 2
    static let buttonToken: UInt64 = 4

    static func makeEventSet(source: borrowing V4L2Source, signals: borrowing SignalChannel,
                             buttons: ButtonControls?) throws(CommandFailure) -> EventSet {
        do throws(SystemError) {
            let events = try EventSet()
            try signals.withRawValue { (fd) throws(SystemError) in try events.add(fd, token: signalToken) }
            if let buttons { try buttons.withDescriptor { (fd) throws(SystemError) in try events.add(fd, token: buttonToken) } }
            try register(source, in: events)
            return events
        } catch {
            throw .runtime("cannot set up the event loop: \(error.message)")
        }
    }

    /// Puts both camera fds in the set (again after a reopen: the numbers may have changed).
    static func register(_ source: borrowing V4L2Source, in events: borrowing EventSet) throws(SystemError) {
        var failure: SystemError? = nil
        source.withDescriptors { color, depth in
            do throws(SystemError) {
                try events.add(color, token: cameraToken)
                try events.add(depth, token: cameraToken)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    static func sinkOptions(_ output: OutputSettings) -> KMSSinkOptions {
        var options = KMSSinkOptions()
        if case .named(let path) = output.card { options.card = path }
        options.mode = output.mode
        switch output.blend {
        case .auto: options.blend = .auto
        case .cpu: options.blend = .cpu
        case .plane: options.blend = .plane
        }
        options.writeback = output.writeback
        return options
    }

    static func sourceConfiguration(_ camera: CameraSettings) -> V4L2SourceConfiguration {
        func choice(_ device: DeviceChoice) -> NodeChoice {
            if case .named(let path) = device { return .path(path) }
            return .auto
        }
        return V4L2SourceConfiguration(color: choice(camera.colorDevice), depth: choice(camera.depthDevice),
                                       size: camera.size, colorFormat: CaptureFormat.parse(camera.colorFormat.name),
                                       framesPerSecond: camera.fps, depthUnitMM: Float(camera.depthUnitMM))
    }

    /// Reads the signals between frames: USR1 prints, HUP reloads (returns the new settings),
    /// TERM/INT set `stopping`.
    static func handleSignals(_ signals: borrowing SignalChannel, stopping: inout Bool, statistics: PipelineStatistics?,
                              reload: (() -> Void)? = nil) {
        let pending = signals.drain()
        if pending.statistics, let statistics { StandardOutput.line(statistics.report) }
        if pending.reload { reload?() }
        if let signal = pending.stop {
            Log.info("stopping on signal \(signal)")
            stopping = true
        }
    }

    static func sleepUntilDue(_ backoff: inout ReopenBackoff, signals: borrowing SignalChannel, stopping: inout Bool) {
        while !backoff.isDue(now: MonotonicClock.nowNanoseconds()) {
            handleSignals(signals, stopping: &stopping, statistics: nil)
            if stopping { return }
            MonotonicClock.sleep(nanoseconds: 50_000_000)
        }
    }

    static func copyBackdrop(_ backdrop: ImageView, into target: ImageView?) {
        guard let target, target.size == backdrop.size else { return }
        for row in 0..<target.size.height {
            target.row(row).copyMemory(from: backdrop.row(row), byteCount: target.size.width * 4)
        }
    }

    /// A message over the backdrop (CPU blend) or on a transparent camera layer (display blend).
    static func drawNotice(_ message: String, into view: ImageView, backdrop: ImageView, layer: Bool) {
        if layer {
            for row in 0..<view.size.height { view.row(row).initializeMemory(as: UInt8.self, repeating: 0, count: view.size.width * 4) }
        } else {
            copyBackdrop(backdrop, into: view)
        }
        _ = TextOverlay().draw(message, into: view)
    }

    /// Before the pipeline exists (no camera yet): draw into a free scanout slot and flip it.
    static func showNotice(_ message: String, sink: KMSSink, backdrop: ImageView, layer: Bool) {
        let slot = (0..<sink.slotCount).first { sink.queue.isFree($0) } ?? 0
        drawNotice(message, into: sink.outputView(slot: slot), backdrop: backdrop, layer: layer)
        _ = sink.present(slot: slot, stamp: FrameStamp(nanoseconds: MonotonicClock.nowNanoseconds(), sequence: 0))
    }

    /// Saves what the screen shows as PNG (lossless: exactly what was shown) in the photos folder: the writeback capture when the
    /// display has one, else the last composed frame.
    static func savePhoto(runner: PipelineRunner<V4L2Source, KMSSink>, directory: String, fromWriteback: Bool) {
        do throws(CommandFailure) { try OutputDirectory.create(directory) } catch {
            Log.warning("photo not saved: \(error.message)")
            return
        }
        let path = directory + "/photo-" + "\(MonotonicClock.nowNanoseconds() / 1_000_000)" + ".png"
        let failure: String? = runner.withIdleSink { sink -> String? in
            func write(_ view: ImageView) -> String? {
                do throws(ImageError) { try PNGEncoder.write(view, to: path); return nil } catch { return error.message }
            }
            if fromWriteback {
                // Generous: the fence signals after the flip, which an emulated or busy board delays.
                return sink.withWriteback(timeoutMS: 2000) { write($0) } ?? "the display did not deliver the capture"
            }
            return write(sink.outputView(slot: runner.lastComposedSlot))
        }
        if let failure { Log.warning("photo not saved: \(failure)") } else { Log.info("photo saved: \(path)") }
    }
}
