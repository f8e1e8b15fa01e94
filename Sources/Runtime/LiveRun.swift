import Backgrounds
import Frames
import KernelIO
import Matte
import Pipeline
import Settings

/// The appliance's steady state for one source and sink without devices (synthetic scene or
/// recording into a file or nowhere): live pacing (late frames dropped), the runtime loop's live
/// state with nothing to wait for (its wake serves the pipeline, the signals and the heartbeat),
/// statistics at exit and on SIGUSR1.
public enum LiveRun {
    public static func run<Source: FrameSource & ~Copyable, Sink: FrameSink & ~Copyable>(
        feed: consuming Source, sink: consuming Sink, settings: Settings, configPath: String, assembly: PipelineAssembly,
        backdrops: BackgroundLibrary, signals: borrowing SignalChannel, frames: Int
    ) throws(CommandFailure) {
        let cameraSummary = feed.summary
        let outputSummary = sink.summary
        let service = ServiceLink()
        let runtime = try RuntimeLoop(signals: signals, service: service)
        let loop = runtime.events
        let tolerance = settings.sync.toleranceNanoseconds(fps: feed.frameRate)
        let processor = try assembly.makeProcessor(colorFormat: feed.colorFormat, colorSize: feed.colorSize,
                                                   depthSize: feed.depthSize, outputSize: sink.outputSize,
                                                   fit: settings.background.fit, matte: settings.matte,
                                                   projection: DepthRegistration.projection(
                                                       camera: settings.camera, depthSize: feed.depthSize,
                                                       colorSize: feed.colorSize))
        let runner = try assembly.startRunner(source: feed, sink: sink, processor: processor, pacing: .live,
                                              syncToleranceNanoseconds: tolerance,
                                              generation: FrameGeneration(matte: settings.matte, backdrop: backdrops.current),
                                              loop: loop)
        assembly.placeIOThread()
        Log.info("camera: \(cameraSummary)")
        Log.info("output: \(outputSummary)")
        Log.info("compute: \(processor.bandCount) band(s); matte \(settings.matte.mode.name)")
        if assembly.realtimePriority > 0 && (runner.computeRefusedRealtime || processor.refusedRealtime) {
            Log.warning("real-time priority was not permitted (needs CAP_SYS_NICE or root); running at normal priority")
        }
        // SIGHUP means what it means on the devices: the config again, then the backdrop folder.
        let live = LiveBackdrops(backdrops, loop: loop, cpuMask: assembly.computeCPUMask)
        var current = settings
        let started = MonotonicClock.nowNanoseconds()
        runner.limitFrames(to: frames)
        var ready: UInt64 = 0
        var woke = false
        while runner.serve(ready) == nil {
            if woke {
                service.framesShown(runner.presented)
                if runtime.takeStatistics() {
                    StandardOutput.line(report(runner.statistics, loop: loop, heartbeat: runtime.heartbeat, since: started))
                }
                if runtime.takeReload() {
                    if let settings = ConfigReload.load(configPath, current: current) {
                        current = settings
                        runner.publish { $0.matte = settings.matte }
                    }
                    if let refused = live.rescan(current, outputSize: runner.withSink { $0.outputSize }) {
                        Log.warning("backdrop rescan: \(refused)")
                    }
                }
                _ = live.iterate(ready & ~runner.tokens, runner: runner)
                if runtime.stopSignal != nil { break }
            }
            runner.prepareWait()
            ready = runtime.next(signals, progress: runner.presented, waitingForDevice: false)
            woke = true
        }
        service.stopping()
        runner.stop()
        live.stop()
        if let stopSignal = runtime.stopSignal { Log.info("stopping on signal \(stopSignal)") }
        StandardOutput.line(report(runner.statistics, loop: loop, heartbeat: runtime.heartbeat, since: started))
        if let failure = runner.finishSink() { throw .runtime(failure) }
    }

    public static func makeLoop() throws(CommandFailure) -> EventLoop {
        do throws(SystemError) { return try EventLoop() } catch {
            throw .runtime("cannot set up the event loop: \(error.message)")
        }
    }

    /// The statistics plus the loop's own figures: wake-ups (per second over the run) and beats.
    static func report(_ statistics: PipelineStatistics, loop: EventLoop, heartbeat: Heartbeat, since: UInt64) -> String {
        let elapsed = max(MonotonicClock.nowNanoseconds() - since, 1)
        let perSecond = loop.wakeups * 1_000_000_000 / elapsed
        return statistics.report + "\nevent loop: \(loop.wakeups) wake-ups (\(perSecond)/s), heartbeat \(heartbeat.count)"
    }
}
