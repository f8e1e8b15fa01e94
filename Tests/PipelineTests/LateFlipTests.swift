@_spi(Testing) import Frames
import KernelIO
import Matte
import Scanout
import Scenes
import Testing
@testable import Pipeline

/// A display whose flips complete late (each `lateness` after its commit, longer than a frame
/// period): the truth of what the "kernel" holds is its own ScanoutQueue, output and direct slots
/// alike, checked every time the runner asks for a slot's view to compose into. With
/// `showsCameraDirectly` it also scans the camera's own buffers out (the camera view's zero-copy
/// path, DirectCameraTests).
final class LateFlipSink: FrameSink {
    let outputSize: FrameSize
    let slotCount = 3
    let lateness: UInt64
    let showsCameraDirectly: Bool
    private let buffers: [SlotBuffer]
    private(set) var truth = ScanoutQueue(slotCount: 3)
    private var timer: DeadlineTimer
    private var flipDue: UInt64 = 0
    private(set) var composedIntoBusy = 0
    private(set) var handedOut = 0
    private(set) var refusedWhileQueued = 0
    private(set) var cameraSubmissions = 0
    private(set) var outputSubmissions = 0

    init(outputSize: FrameSize, lateness: UInt64, showsCameraDirectly: Bool = false) throws {
        self.outputSize = outputSize
        self.lateness = lateness
        self.showsCameraDirectly = showsCameraDirectly
        buffers = try (0..<3).map { _ in try SlotBuffer(format: .xrgb8888, size: outputSize) }
        timer = try DeadlineTimer()
        truth.shown(2)
    }

    var summary: String { "late-flip test sink" }
    var initiallyShownSlot: Int? { 2 }

    func outputView(slot: Int) -> ImageView {
        handedOut += 1
        if !truth.isFree(slot) { composedIntoBusy += 1 }
        return buffers[slot].view
    }

    func present(slot: Int, stamp: FrameStamp) -> UInt64? { nil }
    func finish() -> String? { nil }

    /// Whether the display reads camera slot `cameraSlot` now or will at its next vblank.
    func holds(cameraSlot: Int) -> Bool {
        let slot = directSlot(cameraSlot)
        return truth.queued == slot || truth.current == slot
    }

    func submit(slot: Int, stamp: FrameStamp) -> SinkSubmission {
        outputSubmissions += 1
        return queue(slot)
    }

    func submitCamera(slot cameraSlot: Int, stamp: FrameStamp) -> SinkSubmission {
        precondition(showsCameraDirectly, "a camera buffer submitted to a display that does not show them")
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

@Suite(.serialized) struct LateFlipTests {
    @Test func noFrameIsComposedIntoAQueuedOrShownBuffer() throws {
        let size = FrameSize(width: 32, height: 24)
        let feed = try SyntheticSource(seed: 5, colorFormat: .yuyv, colorSize: size, depthSize: size, frameLimit: nil, paced: true)
        // Flips land 2.5 frame periods after their commit: compose always runs ahead of them.
        let sink = try LateFlipSink(outputSize: size, lateness: 80_000_000)
        let run = try SmallLiveRun(feed: feed, sink: sink, size: size)
        let runner = run.runner
        try runner.start(computeCPUMask: 0, realtimePriority: 0)
        runner.run(frameLimit: 30)
        runner.stop()
        #expect(sink.handedOut == 30 && runner.pairsHandedOff == 30)
        #expect(sink.composedIntoBusy == 0, "\(sink.composedIntoBusy) frames composed into a queued or shown buffer")
        #expect(sink.refusedWhileQueued == 0, "the runner submitted while a flip was queued")
        // Late flips make frames wait or drop; none is lost without being counted.
        #expect(runner.statistics.presented + runner.statistics.droppedBySink == 30)
        #expect(runner.statistics.presented > 0)
        withExtendedLifetime(run) {}  // the running generation pointed into its backdrop until the stop
    }
}
