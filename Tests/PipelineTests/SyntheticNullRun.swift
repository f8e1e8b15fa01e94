@_spi(Testing) import Frames
import Matte
import Scenes
import Sinks
@testable import Pipeline

/// The synthetic camera, unpaced, through the threaded pipeline into the null sink: the set-up the
/// tests that count allocations or sample memory share, so each states only what it measures. The
/// backdrop buffer belongs to the fixture because the running generation points into it: it must
/// outlive the runner, so a test ends with `stop()`, which also keeps the fixture alive until then
/// (Swift may release a local after its last use).
final class SyntheticNullRun {
    let processor: FrameProcessor
    let runner: PipelineRunner<SyntheticSource, NullSink>
    private let backdrop: PixelBuffer

    init(seed: UInt64, camera: FrameSize, output: FrameSize, matte: MatteParameters = MatteParameters(),
         projection: DepthProjection? = nil) throws {
        let feed = try SyntheticSource(seed: seed, colorFormat: .yuyv, colorSize: camera, depthSize: camera,
                                   frameLimit: nil, paced: false)
        processor = try FrameProcessor(colorFormat: .yuyv, colorSize: camera, depthSize: camera, outputSize: output,
                                       fit: .fill, matte: matte, projection: projection,
                                       helperCPUMasks: [0], realtimePriority: 0)
        backdrop = PixelBuffer(format: .xrgb8888, size: output)
        runner = try PipelineRunner(source: feed, sink: NullSink(outputSize: output), processor: processor,
                                    pacing: .lockstep, syncToleranceNanoseconds: 16_000_000,
                                    generation: FrameGeneration(matte: matte, backdrop: backdrop.view))
        try runner.start(computeCPUMask: 0, realtimePriority: 0)
    }

    func stop() { runner.stop() }
}
