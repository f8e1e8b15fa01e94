@_spi(Testing) import Frames
import KernelIO
import Matte
import Scanout
import Scenes
import Testing
@testable import Pipeline

/// The synthetic feed, counting which colour slots are out of its hands, and every time one came
/// back while the display still read it.
final class DisplayWatchedSource: FrameSource {
    private let feed: SyntheticSource
    var display: LateFlipSink?
    private(set) var colourOut = Set<Int>()
    private(set) var releasedWhileShown = 0
    private(set) var releasedTwice = 0

    init(_ feed: SyntheticSource) { self.feed = feed }

    var colorFormat: PixelFormat { feed.colorFormat }
    var colorSize: FrameSize { feed.colorSize }
    var depthSize: FrameSize { feed.depthSize }
    var depthUnitMM: Float { feed.depthUnitMM }
    var frameRate: Int { feed.frameRate }
    var summary: String { feed.summary }
    var nextFrameDueNanoseconds: UInt64? { feed.nextFrameDueNanoseconds }
    func colorView(slot: Int) -> ImageView { feed.colorView(slot: slot) }
    func depthView(slot: Int) -> ImageView { feed.depthView(slot: slot) }

    func nextEvent(timeoutNanoseconds: UInt64) -> SourceEvent {
        let event = feed.nextEvent(timeoutNanoseconds: timeoutNanoseconds)
        if case .color(let slot, _) = event { colourOut.insert(slot) }
        return event
    }

    func releaseColor(slot: Int) {
        if display?.holds(cameraSlot: slot) == true { releasedWhileShown += 1 }
        if colourOut.remove(slot) == nil { releasedTwice += 1 }
        feed.releaseColor(slot: slot)
    }

    func releaseDepth(slot: Int) { feed.releaseDepth(slot: slot) }
}

@Suite(.serialized) struct DirectCameraTests {
    final class Run {
        let backdrop: PixelBuffer
        let processor: FrameProcessor
        let source: DisplayWatchedSource
        let runner: PipelineRunner<DisplayWatchedSource, LateFlipSink>
        let sink: LateFlipSink

        init(size: FrameSize) throws {
            let feed = try SyntheticSource(seed: 9, colorFormat: .yuyv, colorSize: size, depthSize: size,
                                           frameLimit: nil, paced: true)
            sink = try LateFlipSink(outputSize: size, lateness: 4_000_000, showsCameraDirectly: true)
            source = DisplayWatchedSource(feed)
            source.display = sink
            processor = try FrameProcessor(colorFormat: .yuyv, colorSize: size, depthSize: size, outputSize: size,
                                           fit: .fill, matte: MatteParameters(), projection: nil,
                                           helperCPUMasks: [], realtimePriority: 0)
            backdrop = PixelBuffer(format: .xrgb8888, size: size)
            runner = try PipelineRunner(source: source, sink: sink, processor: processor, pacing: .live,
                                        syncToleranceNanoseconds: 16_000_000,
                                        generation: FrameGeneration(matte: MatteParameters(), backdrop: backdrop.view))
        }
    }

    let size = FrameSize(width: 32, height: 24)

    @Test func theCameraViewShowsCameraBuffersWithoutComputeAndGivesEachBackOnlyOffScreen() throws {
        let run = try Run(size: size)
        run.runner.publish { $0.showCamera = true }
        try run.runner.start(computeCPUMask: 0, realtimePriority: 0)
        run.runner.run(frameLimit: 30)
        run.runner.stop()
        let statistics = run.runner.statistics
        #expect(statistics.matte.count == 0 && statistics.compose.count == 0, "compute ran in the direct camera view")
        #expect(run.runner.pairsHandedOff == 0)
        #expect(run.sink.cameraSubmissions == 30 && run.sink.outputSubmissions == 0)
        #expect(statistics.presentedDirectly + statistics.droppedBySink == 30 && statistics.presentedDirectly > 0)
        #expect(run.source.releasedWhileShown == 0, "a camera buffer went back while the display read it")
        #expect(run.source.releasedTwice == 0)
        #expect(run.sink.refusedWhileQueued == 0, "the runner submitted while a flip was queued")
        // Only the buffer on screen is still the display's; every other one went back.
        let onScreen = run.sink.truth.current.map { $0 - run.sink.slotCount }
        #expect(run.source.colourOut == Set(onScreen.map { [$0] } ?? []))
        withExtendedLifetime(run) {}
    }

    @Test func switchingInAndOutOfTheCameraViewLosesNoBufferAndNeverFreesOneOnScreen() throws {
        let run = try Run(size: size)
        try run.runner.start(computeCPUMask: 0, realtimePriority: 0)
        run.runner.run(frameLimit: 10)
        let composedBefore = run.runner.pairsHandedOff
        run.runner.publish { $0.showCamera = true }
        run.runner.run(frameLimit: 25)
        let direct = run.runner.statistics.presentedDirectly
        run.runner.publish { $0.showCamera = false }
        run.runner.run(frameLimit: 40)
        run.runner.stop()
        #expect(composedBefore == 10)
        #expect(direct > 0 && run.sink.cameraSubmissions == 15)
        #expect(run.runner.pairsHandedOff == 25, "frames after leaving the camera view are composed again")
        #expect(run.source.releasedWhileShown == 0, "a camera buffer went back while the display read it")
        #expect(run.source.releasedTwice == 0)
        // The last frames were composed, so no camera buffer is on screen and none is held.
        #expect(run.sink.truth.current.map { $0 < run.sink.slotCount } == true)
        #expect(run.source.colourOut.isEmpty, "camera buffers never given back: \(run.source.colourOut)")
        withExtendedLifetime(run) {}
    }

    @Test func whileAMessageIsUpTheCameraViewIsComposedWithAnOpaqueMatte() throws {
        let run = try Run(size: size)
        run.runner.composesCameraView = true
        run.runner.publish { $0.showCamera = true }
        try run.runner.start(computeCPUMask: 0, realtimePriority: 0)
        run.runner.run(frameLimit: 8)
        run.runner.stop()
        #expect(run.sink.cameraSubmissions == 0 && run.runner.pairsHandedOff == 8)
        let alpha = run.processor.alphaView
        var notOpaque = 0
        for y in 0..<size.height {
            let row = alpha.row(y).assumingMemoryBound(to: UInt8.self)
            for x in 0..<size.width where row[x] != 255 { notOpaque += 1 }
        }
        #expect(notOpaque == 0, "the camera view's matte left \(notOpaque) pixels less than opaque")
        #expect(run.source.colourOut.isEmpty)
        withExtendedLifetime(run) {}
    }
}
