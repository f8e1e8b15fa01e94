import Frames
@testable import Scenes
import Testing

@Suite struct RecordingSourceTests {
    func makeRecording(frames: Int) throws -> (RecordingFixture, Recording) {
        let fixture = RecordingFixture()
        fixture.writeSettings("[recording]\nframe_rate = 50\n")
        for index in 0..<frames { try fixture.writeFrame(index, size: FrameSize(width: 8, height: 4)) }
        return (fixture, try Recording.open(fixture.path))
    }

    @Test func deliversColourThenDepthWithOneStampPerFrameThenEnds() throws {
        let (fixture, recording) = try makeRecording(frames: 4)
        _ = fixture
        var source = try RecordingSource(recording: recording, paced: false, loops: false)
        #expect(source.frameRate == 50 && source.colorFormat == .rgb24)
        var stamps: [UInt64] = []
        for frame in 0..<4 {
            guard case .color(let colorSlot, let colorStamp) = source.nextEvent(timeoutNanoseconds: 0) else {
                Issue.record("expected colour for frame \(frame)"); return
            }
            guard case .depth(let depthSlot, let depthStamp) = source.nextEvent(timeoutNanoseconds: 0) else {
                Issue.record("expected depth for frame \(frame)"); return
            }
            #expect(colorStamp == depthStamp && colorStamp.sequence == UInt32(frame))
            #expect(source.colorView(slot: colorSlot).row(0).load(as: UInt8.self) == UInt8(frame))
            #expect(source.depthView(slot: depthSlot).row(0).load(fromByteOffset: 2, as: UInt16.self) == UInt16(1001 + 10 * frame))
            stamps.append(colorStamp.nanoseconds)
            source.releaseColor(slot: colorSlot)
            source.releaseDepth(slot: depthSlot)
        }
        #expect(source.nextEvent(timeoutNanoseconds: 0) == .ended)
        #expect(source.failure == nil)
        // 50 fps: stamps 20 ms apart.
        for index in 1..<4 { #expect(stamps[index] - stamps[index - 1] == 20_000_000) }
    }

    @Test func heldSlotsStallProductionAndLoopingRestarts() throws {
        let (fixture, recording) = try makeRecording(frames: 2)
        _ = fixture
        var source = try RecordingSource(recording: recording, paced: false, loops: true)
        var held: [(Int, Int)] = []
        for _ in 0..<RecordingSource.slotCount {
            guard case .color(let c, _) = source.nextEvent(timeoutNanoseconds: 0),
                  case .depth(let d, _) = source.nextEvent(timeoutNanoseconds: 0) else { Issue.record("no frame"); return }
            held.append((c, d))
        }
        // Third frame came from the loop restart: frame 0 again.
        #expect(source.colorView(slot: held[2].0).row(0).load(as: UInt8.self) == 0)
        #expect(source.nextEvent(timeoutNanoseconds: 0) == .idle)
        source.releaseColor(slot: held[0].0)
        source.releaseDepth(slot: held[0].1)
        guard case .color(let slot, let stamp) = source.nextEvent(timeoutNanoseconds: 0) else { Issue.record("no frame after release"); return }
        #expect(slot == held[0].0 && stamp.sequence == 3)
    }
}
