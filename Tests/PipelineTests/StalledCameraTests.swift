import CKernel
@_spi(Testing) import Frames
import KernelIO
import Matte
import Sinks
import Testing
@testable import Pipeline

/// A camera that is open but stalled: its colour fd is a timerfd the test arms, so a "frame"
/// arrives when the kernel makes the fd readable, like a V4L2 node after a DQBUF-able buffer.
/// Until then `nextEvent` finds nothing, as DQBUF would (EAGAIN).
struct StalledCamera: FrameSource, ~Copyable {
    let colorFormat = PixelFormat.yuyv
    let colorSize = FrameSize(width: 8, height: 8)
    let depthSize = FrameSize(width: 8, height: 8)
    let depthUnitMM: Float = 1
    let frameRate = 30
    var summary: String { "stalled test camera" }
    private let color = PixelBuffer(format: .yuyv, size: FrameSize(width: 8, height: 8))
    private let depth = PixelBuffer(format: .z16, size: FrameSize(width: 8, height: 8))
    private let arrival: DeadlineTimer
    private var depthPending = false
    private var stamp = FrameStamp(nanoseconds: 0, sequence: 0)

    init() throws { arrival = try DeadlineTimer() }

    func colorView(slot: Int) -> ImageView { color.view }
    func depthView(slot: Int) -> ImageView { depth.view }

    mutating func nextEvent(timeoutNanoseconds: UInt64) -> SourceEvent {
        if depthPending {
            depthPending = false
            return .depth(slot: 0, stamp: stamp)
        }
        guard arrival.withRawValue({ bk_timerfd_drain($0) }) == 0 else { return .idle }
        stamp = FrameStamp(nanoseconds: MonotonicClock.nowNanoseconds(), sequence: stamp.sequence &+ 1)
        depthPending = true
        return .color(slot: 0, stamp: stamp)
    }

    mutating func releaseColor(slot: Int) {}
    mutating func releaseDepth(slot: Int) {}
    var nextFrameDueNanoseconds: UInt64? { nil }
    func withDescriptors<R>(_ body: (Int32, Int32) -> R) -> R { arrival.withRawValue { body($0, -1) } }
}

@Suite(.serialized) struct StalledCameraTests {
    /// The recheck backs off while nothing comes (20 ms doubling to 1 s: six empty rechecks), and a
    /// frame that comes after that is taken in the wake its own fd caused, not at the next recheck.
    @Test func theRecheckBacksOffAndAFrameAfterALongStallIsTakenOnItsDescriptor() throws {
        let size = FrameSize(width: 8, height: 8)
        let processor = try FrameProcessor(colorFormat: .yuyv, colorSize: size, depthSize: size, outputSize: size,
                                           fit: .fill, matte: MatteParameters(), projection: nil,
                                           helperCPUMasks: [], realtimePriority: 0)
        let backdrop = PixelBuffer(format: .xrgb8888, size: size)
        let runner = try PipelineRunner(source: try StalledCamera(), sink: NullSink(outputSize: size),
                                        processor: processor, pacing: .live, syncToleranceNanoseconds: 16_000_000,
                                        generation: FrameGeneration(matte: MatteParameters(), backdrop: backdrop.view))
        try runner.start(computeCPUMask: 0, realtimePriority: 0)
        var intervals: [UInt64] = []
        var armed = false
        var intervalAfterFrame: UInt64? = nil
        runner.run(frameLimit: 1) { _ in
            if runner.pairsHandedOff == 1 && intervalAfterFrame == nil { intervalAfterFrame = runner.recheckNanoseconds }
            if armed { return true }
            intervals.append(runner.recheckNanoseconds)
            // (Armed after twelve rechecks whatever they were, so a back-off that never reaches the
            // ceiling fails the checks below instead of hanging.)
            if runner.recheckNanoseconds == SourceRecheck.longestNanoseconds || intervals.count == 12 {
                // The next recheck is a second away; the frame's fd becomes readable well before it.
                armed = true
                let at = MonotonicClock.nowNanoseconds() + 200_000_000
                runner.withSource { $0.withDescriptors { color, _ in _ = bk_timerfd_arm_at(color, at) } }
            }
            return true
        }
        runner.stop()
        // (When compute finished within the same service the run ended without another wake, and
        // no recheck can have passed since the frame.)
        if intervalAfterFrame == nil { intervalAfterFrame = runner.recheckNanoseconds }
        // Seen at each recheck wake: 20, 40, ... ms, then the 1 s ceiling (the seventh recheck).
        #expect(intervals == [20, 40, 80, 160, 320, 640, 1000].map { UInt64($0) * 1_000_000 })
        #expect(runner.pairsHandedOff == 1)
        #expect(runner.stallsEndedOnDescriptor == 1 && runner.stallsEndedOtherwise == 0,
                "the frame was taken by \(runner.stallsEndedOnDescriptor == 1 ? "its fd" : "a recheck or another wake")")
        #expect(intervalAfterFrame == SourceRecheck.firstNanoseconds, "the back-off starts again after a frame")
    }
}
