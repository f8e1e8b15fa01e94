#if canImport(CAllocCounter)
import CAllocCounter
import Frames
import Testing
@testable import Capture

extension VideoHardware {
    /// The steady state of a real stream allocates nothing: dequeue, view and re-queue only touch
    /// what was allocated at open. (Active once CaptureTests depends on CAllocCounter.)
    @Suite struct V4L2SourceAllocationTests {
        @Test(.enabled(if: VideoNodes.vividPair != nil, Comment(rawValue: VideoNodes.noPair)))
        func steadyStateMakesNoHeapAllocations() throws {
            let pair = try #require(VideoNodes.vividPair)
            let source = try V4L2Source(configuration: V4L2SourceConfiguration(
                color: .path(pair.colorPath), depth: .path(pair.depthPath), size: FrameSize(width: 320, height: 180)))
            #expect(V4L2SourceTests.frames(6, from: source) == 6)
            var frames = 0
            var checksum = 0
            alloc_counter_track_this_thread(1)
            defer { alloc_counter_track_this_thread(0) }
            alloc_counter_start()
            for _ in 0..<600 where frames < 30 {
                switch source.nextEvent(timeoutNanoseconds: 100_000_000) {
                case .color(let slot, _):
                    checksum &+= Int(source.colorView(slot: slot).base.load(as: UInt8.self))
                    source.releaseColor(slot: slot)
                    frames += 1
                case .depth(let slot, _):
                    checksum &+= Int(source.depthView(slot: slot).base.load(as: UInt8.self))
                    source.releaseDepth(slot: slot)
                    frames += 1
                default:
                    break
                }
            }
            let allocations = alloc_counter_stop()
            #expect(frames == 30)
            #expect(allocations == 0, "30 frames made \(allocations) heap allocations (checksum \(checksum))")
        }
    }
}
#endif
