import Backgrounds
import Frames
import KernelIO
import Matte
import Pipeline
import Settings

/// The appliance's steady state for one source and sink without devices (synthetic scene or
/// recording into a file or nowhere): live pacing (late frames dropped), one event loop holding
/// the signals and the heartbeat, statistics at exit and on SIGUSR1.
enum LiveRun {
    static func run<Source: FrameSource & ~Copyable, Sink: FrameSink & ~Copyable>(
        feed: consuming Source, sink: consuming Sink, settings: Settings, configPath: String, assembly: PipelineAssembly,
        backdrops: BackgroundLibrary, signals: borrowing SignalChannel, frames: Int
    ) throws(CommandFailure) {
        let cameraSummary = feed.summary
        let outputSummary = sink.summary
        let loop = try makeLoop()
        let watch = try SignalWatch(signals, in: loop)
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
        var stopSignal: Int32? = nil
        var heartbeat = Heartbeat(loop: loop)
        let service = ServiceLink()
        let started = MonotonicClock.nowNanoseconds()
        runner.run(frameLimit: frames) { ready in
            if heartbeat.iterate(loop: loop, progress: runner.presented, waitingForDevice: false) { service.beat() }
            service.framesShown(runner.presented)
            let pending = watch.pending(ready, signals)
            if pending.statistics {
                StandardOutput.line(report(runner.statistics, loop: loop, heartbeat: heartbeat, since: started))
            }
            if pending.reload {
                if let settings = ConfigReload.load(configPath, current: current) {
                    current = settings
                    runner.publish { $0.matte = settings.matte }
                }
                if let refused = live.rescan(current, outputSize: runner.withSink { $0.outputSize }) {
                    Log.warning("backdrop rescan: \(refused)")
                }
            }
            _ = live.iterate(ready, runner: runner)
            stopSignal = pending.stop
            return stopSignal == nil
        }
        service.stopping()
        runner.stop()
        live.stop()
        if let stopSignal { Log.info("stopping on signal \(stopSignal)") }
        StandardOutput.line(report(runner.statistics, loop: loop, heartbeat: heartbeat, since: started))
        if let failure = runner.finishSink() { throw .runtime(failure) }
    }

    static func makeLoop() throws(CommandFailure) -> EventLoop {
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
