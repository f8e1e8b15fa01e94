import Runtime
import Backgrounds
import Frames
import KernelIO
import Looks
import Pipeline
import Settings

/// Runs a finite source through the threaded pipeline in lockstep (every frame processed, so the
/// output is identical on every machine) and prints the statistics. Between frames it redraws the
/// progress line and looks for a stop (Ctrl-C, held by the caller): a stop ends the run there, the
/// frames already out stay written and the statistics still print.
enum OfflineRun {
    struct Outcome {
        /// Frames that reached the sink.
        let frames: Int
        /// "SIGINT" or "SIGTERM" when a stop ended the run early.
        let stoppedBy: String?
    }

    static func run<Source: FrameSource & ~Copyable, Sink: FrameSink & ~Copyable>(
        feed: consuming Source, sink: consuming Sink, processor: FrameProcessor, assembly: PipelineAssembly,
        backdrops: BackgroundLibrary, frames: Int, settings: Settings, progress: ProgressLine,
        peopleLook: ColourLookup? = nil
    ) throws(CommandFailure) -> Outcome {
        let tolerance = settings.sync.toleranceNanoseconds(fps: feed.frameRate)
        Log.info("source: \(feed.summary)")
        Log.info("sink: \(sink.summary)")
        Log.info("compute: \(processor.bandCount) band(s) on \(assembly.helperCPUMasks.count + 1) thread(s)")
        var generation = FrameGeneration(matte: settings.matte, backdrop: backdrops.current)
        generation.peopleLook = peopleLook
        let runner = try assembly.startRunner(source: feed, sink: sink, processor: processor, pacing: .lockstep,
                                              syncToleranceNanoseconds: tolerance,
                                              generation: generation)
        var stoppedBy: String? = nil
        runner.run(frameLimit: frames) { _ in
            progress.update(done: runner.presented)
            stoppedBy = StopRequest.pending
            return stoppedBy == nil
        }
        runner.stop()
        // A short run can end without the loop ever waiting (so without `between`): its count once.
        progress.update(done: runner.presented)
        progress.finish()
        if let failure = runner.finishSink() { throw .runtime(failure) }
        StandardOutput.line(runner.statistics.report)
        return Outcome(frames: runner.presented, stoppedBy: stoppedBy)
    }
}
