@_spi(Testing) import Frames
import KernelIO
import Matte
import Scenes
import Glibc
import Synchronization
import Testing
@testable import Pipeline

/// A sink that counts what reaches it; its slots start filled with a marker byte, so a compose
/// into one shows even when no result ever comes back.
final class MarkedSlotSink: FrameSink {
    static let marker: UInt8 = 0xa5
    let outputSize: FrameSize
    let slotCount = 3
    private let buffers: [SlotBuffer]
    private(set) var presents = 0

    init(outputSize: FrameSize) throws {
        self.outputSize = outputSize
        buffers = try (0..<3).map { _ in try SlotBuffer(format: .xrgb8888, size: outputSize) }
        for buffer in buffers {
            let view = buffer.view
            view.base.initializeMemory(as: UInt8.self, repeating: Self.marker, count: view.bytesPerRow * view.size.height)
        }
    }

    var summary: String { "marked-slot test sink" }
    func outputView(slot: Int) -> ImageView { buffers[slot].view }
    func present(slot: Int, stamp: FrameStamp) -> UInt64? { presents += 1; return MonotonicClock.nowNanoseconds() }
    func finish() -> String? { nil }

    /// Slots holding any byte but the marker: slots compose wrote into.
    var slotsWritten: Int {
        buffers.filter { buffer in
            let view = buffer.view
            let bytes = UnsafeRawBufferPointer(start: view.base, count: view.bytesPerRow * view.size.height)
            return bytes.contains { $0 != Self.marker }
        }.count
    }
}

/// Set on one thread, read on another.
final class SharedFlag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .releasing) }
    var isSet: Bool { value.load(ordering: .acquiring) }
}

@Suite struct StopBeforeComposeTests {
    /// SIGTERM's stop while compute builds a frame's matte: that frame is never shown, so compute
    /// must not compose it (stop would wait for the compose; on a loaded board, half a frame).
    @Test func computeSkipsTheComposeOfAFrameWhoseMatteWasUnderWayWhenStopCame() throws {
        let size = FrameSize(width: 64, height: 48)
        let feed = try SyntheticSource(seed: 3, colorFormat: .yuyv, colorSize: size, depthSize: size, frameLimit: nil, paced: false)
        let sink = try MarkedSlotSink(outputSize: size)
        let run = try SmallLiveRun(feed: feed, sink: sink, size: size)
        let runner = run.runner
        let matteDone = SharedFlag()
        // Compute holds after the first frame's matte until the stop has been asked for.
        runner.afterMatteForTests = { [unowned runner] in
            matteDone.set()
            while !runner.stopRequested { sched_yield() }
        }
        try runner.start(computeCPUMask: 0, realtimePriority: 0)
        while runner.pairsHandedOff == 0 { runner.service() }
        #expect(runner.pairsHandedOff == 1)
        while !matteDone.isSet { sched_yield() }
        runner.stop()
        runner.afterMatteForTests = nil
        #expect(sink.slotsWritten == 0, "the frame in compute was composed after the stop")
        #expect(runner.statistics.compose.count == 0, "compute handed back a composed frame after the stop")
        #expect(sink.presents == 0 && runner.statistics.presented == 0, "a frame was shown after the stop")
        withExtendedLifetime(run) {}  // the running generation pointed into its backdrop until the stop
    }
}
