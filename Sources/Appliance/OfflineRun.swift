import Backgrounds
import Frames
import KernelIO
import Looks
import Pipeline
import Settings

/// Runs a finite source through the threaded pipeline in lockstep (every frame processed, so the
/// output is identical on every machine) and prints the statistics.
enum OfflineRun {
    static func run<Source: FrameSource & ~Copyable, Sink: FrameSink & ~Copyable>(
        feed: consuming Source, sink: consuming Sink, processor: FrameProcessor, assembly: PipelineAssembly,
        backdrops: BackgroundLibrary, frames: Int, settings: Settings, peopleLook: ColourLookup? = nil
    ) throws(CommandFailure) {
        let tolerance = settings.sync.toleranceNanoseconds(fps: feed.frameRate)
        Log.info("source: \(feed.summary)")
        Log.info("sink: \(sink.summary)")
        Log.info("compute: \(processor.bandCount) band(s) on \(assembly.helperCPUMasks.count + 1) thread(s)")
        var generation = FrameGeneration(matte: settings.matte, backdrop: backdrops.current)
        generation.peopleLook = peopleLook
        let runner = try assembly.startRunner(source: feed, sink: sink, processor: processor, pacing: .lockstep,
                                              syncToleranceNanoseconds: tolerance,
                                              generation: generation)
        runner.run(frameLimit: frames)
        runner.stop()
        if let failure = runner.finishSink() { throw .runtime(failure) }
        StandardOutput.line(runner.statistics.report)
    }
}
