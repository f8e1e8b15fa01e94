#if canImport(CAllocCounter)
import Frames
import CAllocCounter
import Testing
@testable import Scanout

/// The page-flip path allocates nothing: present (commit, flip-event wait) and writeback capture,
/// counted by malloc interposition across all threads. Part of KMSSinkDeviceTests so it never
/// runs beside another sink (a second fd on the card is not DRM master and is refused).
extension KMSSinkDeviceTests {
    @Test func presentAndWritebackAllocateNothing() throws {
        let sink = try KMSSink(options: KMSSinkOptions(blend: .cpu, writeback: true))
        var shown = 0
        var captured = 0
        // Warm-up outside the count: first commits, first events.
        for frame in 0..<3 { _ = sink.present(slot: frame % sink.slotCount, stamp: FrameStamp(nanoseconds: 0, sequence: 0)) }
        alloc_counter_start()
        for frame in 0..<20 {
            let slot = (frame + 1) % sink.slotCount
            if frame % 5 == 0 { sink.armWriteback() }
            if sink.present(slot: slot, stamp: FrameStamp(nanoseconds: 0, sequence: UInt32(frame))) != nil { shown += 1 }
            if frame % 5 == 0, sink.withWriteback(timeoutMS: 2000, { _ in true }) == true { captured += 1 }
        }
        let calls = alloc_counter_stop()
        #expect(calls == 0, "\(calls) allocations in 20 presents")
        #expect(shown > 0 && captured > 0)
    }
}
#endif
