@_spi(Testing) import Frames
import KernelIO
import Matte
import Scanout
import Scenes
import Testing
@testable import Pipeline

/// A display that can scan the camera's own buffers out (the camera view's zero-copy path). Its
/// flips complete `lateness` after each commit; `truth` is what its "kernel" holds, output and
/// direct slots alike.
final class DirectCameraSink: FrameSink {
    let outputSize: FrameSize
    let slotCount = 3
    let lateness: UInt64
    private let buffers: [SlotBuffer]
    private(set) var truth = ScanoutQueue(slotCount: 3)
    private var timer: DeadlineTimer
    private var flipDue: UInt64 = 0
    private(set) var cameraSubmissions = 0
    private(set) var outputSubmissions = 0
    private(set) var refusedWhileQueued = 0

    init(outputSize: FrameSize, lateness: UInt64) throws {
        self.outputSize = outputSize
        self.lateness = lateness
        buffers = try (0..<3).map { _ in try SlotBuffer(format: .xrgb8888, size: outputSize) }
        timer = try DeadlineTimer()
        truth.shown(2)
    }

    var summary: String { "direct-camera test sink" }
    var initiallyShownSlot: Int? { 2 }
    var showsCameraDirectly: Bool { true }

    /// Whether the display reads camera slot `cameraSlot` now or will at its next vblank.
    func holds(cameraSlot: Int) -> Bool {
        let slot = directSlot(cameraSlot)
        return truth.queued == slot || truth.current == slot
    }

    func outputView(slot: Int) -> ImageView { buffers[slot].view }
    func present(slot: Int, stamp: FrameStamp) -> UInt64? { nil }
    func finish() -> String? { nil }

    func submit(slot: Int, stamp: FrameStamp) -> SinkSubmission {
        outputSubmissions += 1
        return queue(slot)
    }

    func submitCamera(slot cameraSlot: Int, stamp: FrameStamp) -> SinkSubmission {
        cameraSubmissions += 1
        return queue(directSlot(cameraSlot))
    }

    private func queue(_ slot: Int) -> SinkSubmission {
        guard truth.canQueue else { refusedWhileQueued += 1; return .refused }
        truth.queue(slot)
        flipDue = MonotonicClock.nowNanoseconds() + lateness
        timer.arm(at: flipDue)
        return .queued
    }

    func takeCompletion() -> SinkCompletion? {
        guard let slot = truth.queued, MonotonicClock.nowNanoseconds() >= flipDue else { return nil }
        timer.acknowledge()
        truth.flipped()
        return SinkCompletion(slot: slot, nanoseconds: MonotonicClock.nowNanoseconds())
    }

    func withCompletionDescriptor<R>(_ body: (Int32) -> R) -> R { timer.withRawValue { body($0) } }
}

/// The synthetic feed, counting which colour slots are out of its hands, and every time one came
/// back while the display still read it.
final class DisplayWatchedSource: FrameSource {
    private let feed: SyntheticSource
    var display: DirectCameraSink?
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
        let runner: PipelineRunner<DisplayWatchedSource, DirectCameraSink>
        let sink: DirectCameraSink

        init(size: FrameSize) throws {
            let feed = try SyntheticSource(seed: 9, colorFormat: .yuyv, colorSize: size, depthSize: size,
                                           frameLimit: nil, paced: true)
            sink = try DirectCameraSink(outputSize: size, lateness: 4_000_000)
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
