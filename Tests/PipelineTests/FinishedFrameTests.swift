@_spi(Testing) import Frames
import Matte
import Scenes
import Sinks
import Testing
@testable import Pipeline

/// `whenFrameFinished`: the photo's way to the frame composed after the shutter, with its layers.
@Suite struct FinishedFrameTests {
    private func makeRunner(over background: borrowing PixelBuffer) throws -> PipelineRunner<SyntheticSource, NullSink> {
        let size = FrameSize(width: 48, height: 36)
        let output = FrameSize(width: 64, height: 48)
        let feed = try SyntheticSource(seed: 5, colorFormat: .yuyv, colorSize: size, depthSize: size, frameLimit: nil, paced: false)
        let processor = try FrameProcessor(colorFormat: .yuyv, colorSize: size, depthSize: size, outputSize: output,
                                           fit: .fill, matte: MatteParameters(), projection: nil,
                                           helperCPUMasks: [], realtimePriority: 0)
        let runner = try PipelineRunner(source: feed, sink: NullSink(outputSize: output), processor: processor,
                                        pacing: .lockstep, syncToleranceNanoseconds: 16_000_000,
                                        generation: FrameGeneration(matte: MatteParameters(), backdrop: background.view))
        try runner.start(computeCPUMask: 0, realtimePriority: 0)
        return runner
    }

    @Test func lendsTheFirstFrameHandedOffAfterTheCallOnceWithItsLayers() throws {
        let background = PixelBuffer(format: .xrgb8888, size: FrameSize(width: 64, height: 48))
        let runner = try makeRunner(over: background)
        runner.run(frameLimit: 10)
        var seen: [UInt32] = []
        var sizes: [FrameSize] = []
        runner.whenFrameFinished(from: runner.pairsHandedOff) { frame, _ in
            seen.append(frame.stamp.sequence)
            sizes = [frame.color.size, frame.depth.size, frame.alpha.size, frame.output.size]
        }
        runner.run(frameLimit: 20)
        runner.stop()
        #expect(seen == [10])
        #expect(sizes == [FrameSize(width: 48, height: 36), FrameSize(width: 48, height: 36),
                          FrameSize(width: 48, height: 36), FrameSize(width: 64, height: 48)])
    }

    @Test func aCancelledWatchLendsNothing() throws {
        let background = PixelBuffer(format: .xrgb8888, size: FrameSize(width: 64, height: 48))
        let runner = try makeRunner(over: background)
        runner.run(frameLimit: 5)
        var calls = 0
        runner.whenFrameFinished(from: runner.pairsHandedOff) { _, _ in calls += 1 }
        runner.cancelFinishedFrame()
        runner.run(frameLimit: 10)
        runner.stop()
        #expect(calls == 0)
    }
}
