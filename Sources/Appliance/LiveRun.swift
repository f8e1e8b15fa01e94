import Backgrounds
import Frames
import KernelIO
import Matte
import Pipeline
import Settings

/// The appliance's steady state for one source and sink: live pacing (late frames dropped),
/// signals handled between frames, statistics at exit.
enum LiveRun {
    static func run<Source: FrameSource & ~Copyable, Sink: FrameSink & ~Copyable>(
        feed: consuming Source, sink: consuming Sink, settings: Settings, configPath: String, assembly: PipelineAssembly,
        backdrops: BackgroundLibrary, signals: borrowing SignalChannel, frames: Int
    ) throws(CommandFailure) {
        let cameraSummary = feed.summary
        let outputSummary = sink.summary
        let tolerance = settings.sync.toleranceNanoseconds(fps: feed.frameRate)
        let processor = try assembly.makeProcessor(colorFormat: feed.colorFormat, colorSize: feed.colorSize,
                                                   depthSize: feed.depthSize, outputSize: sink.outputSize,
                                                   fit: settings.background.fit, matte: settings.matte,
                                                   projection: DepthRegistration.projection(
                                                       camera: settings.camera, depthSize: feed.depthSize,
                                                       colorSize: feed.colorSize))
        let runner = try assembly.startRunner(source: feed, sink: sink, processor: processor, pacing: .live,
                                              syncToleranceNanoseconds: tolerance, backdrops: backdrops)
        Log.info("camera: \(cameraSummary)")
        Log.info("output: \(outputSummary)")
        Log.info("compute: \(processor.bandCount) band(s); matte \(settings.matte.mode.name)")
        if assembly.realtimePriority > 0 && (runner.computeRefusedRealtime || processor.refusedRealtime) {
            Log.warning("real-time priority was not permitted (needs CAP_SYS_NICE or root); running at normal priority")
        }
        var current = settings
        var stopSignal: Int32? = nil
        runner.run(frameLimit: frames) {
            let pending = signals.drain()
            if pending.statistics { StandardOutput.line(runner.statistics.report) }
            if pending.reload { current = reload(configPath, current: current, processor: processor) }
            stopSignal = pending.stop
            return stopSignal == nil
        }
        runner.stop()
        if let stopSignal { Log.info("stopping on signal \(stopSignal)") }
        StandardOutput.line(runner.statistics.report)
        if let failure = runner.finishSink() { throw .runtime(failure) }
    }

    /// SIGHUP: a valid file replaces the thresholds; an invalid one is reported and changes nothing.
    static func reload(_ path: String, current: Settings, processor: FrameProcessor) -> Settings {
        switch ConfigFile.parse(path) {
        case .success(let settings):
            processor.update(matte: settings.matte)
            if settings.output != current.output || settings.camera != current.camera || settings.pipeline != current.pipeline {
                Log.warning("config reloaded: [matte] applied; [camera], [output] and [pipeline] changes apply on restart")
            } else {
                Log.info("config reloaded from \(path)")
            }
            return settings
        case .failure(let failure):
            Log.error("config reload refused, keeping the previous settings: \(failure.message)")
            return current
        }
    }
}
