@_spi(Testing) import Frames
import Matte
import Scenes
@testable import Pipeline

/// What the tests that watch compose and flips run: a synthetic YUYV feed into `sink` at one size,
/// the default matte, a plain backdrop, live pacing. It owns the backdrop because the running
/// generation's view points into it until the runner has stopped.
final class SmallLiveRun<Sink: FrameSink & AnyObject> {
    let backdrop: PixelBuffer
    let runner: PipelineRunner<SyntheticSource, Sink>

    init(feed: consuming SyntheticSource, sink: Sink, size: FrameSize) throws {
        let processor = try FrameProcessor(colorFormat: .yuyv, colorSize: size, depthSize: size, outputSize: size,
                                           fit: .fill, matte: MatteParameters(), projection: nil,
                                           helperCPUMasks: [], realtimePriority: 0)
        backdrop = PixelBuffer(format: .xrgb8888, size: size)
        runner = try PipelineRunner(source: feed, sink: sink, processor: processor, pacing: .live,
                                    syncToleranceNanoseconds: 16_000_000,
                                    generation: FrameGeneration(matte: MatteParameters(), backdrop: backdrop.view))
    }
}
