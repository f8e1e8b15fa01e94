import Frames
import Testing
@testable import FrameSync

/// Drives FrameSync with arrival sequences and records what it pairs and gives back.
private struct Harness {
    var sync: FrameSync
    var pairs: [SyncPair] = []
    var releasedColor: [Int] = []
    var releasedDepth: [Int] = []

    init(toleranceMS: UInt64) { sync = FrameSync(toleranceNanoseconds: toleranceMS * 1_000_000) }

    mutating func color(_ slot: Int, atMS ms: UInt64, sequence: UInt32) {
        var dropped = SlotList()
        if let pair = sync.offerColor(slot: slot, stamp: FrameStamp(nanoseconds: ms * 1_000_000, sequence: sequence),
                                      releasing: &dropped) { pairs.append(pair) }
        collect(dropped)
    }

    mutating func depth(_ slot: Int, atMS ms: UInt64, sequence: UInt32) {
        var dropped = SlotList()
        if let pair = sync.offerDepth(slot: slot, stamp: FrameStamp(nanoseconds: ms * 1_000_000, sequence: sequence),
                                      releasing: &dropped) { pairs.append(pair) }
        collect(dropped)
    }

    private mutating func collect(_ dropped: SlotList) {
        for index in 0..<dropped.colorCount { releasedColor.append(dropped.color(index)) }
        for index in 0..<dropped.depthCount { releasedDepth.append(dropped.depth(index)) }
    }
}

@Suite struct FrameSyncTests {
    @Test func defaultToleranceIsHalfAFramePeriod() {
        #expect(FrameSync.defaultTolerance(frameRate: 30) == 16_666_666)
        #expect(FrameSync.defaultTolerance(frameRate: 0) == 500_000_000)
    }

    @Test func pairsFramesWithinToleranceInEitherArrivalOrder() {
        var harness = Harness(toleranceMS: 16)
        harness.color(0, atMS: 100, sequence: 1)
        harness.depth(7, atMS: 105, sequence: 1)
        harness.depth(8, atMS: 133, sequence: 2)
        harness.color(1, atMS: 131, sequence: 2)
        #expect(harness.pairs.map { [$0.colorSlot, $0.depthSlot] } == [[0, 7], [1, 8]])
        #expect(harness.releasedColor.isEmpty && harness.releasedDepth.isEmpty)
        #expect(harness.pairs[0].captureNanoseconds == 100_000_000)
    }

    @Test func lateDepthStillFindsItsColourAfterTheNextColourArrived() {
        var harness = Harness(toleranceMS: 16)
        harness.color(0, atMS: 0, sequence: 1)
        harness.color(1, atMS: 33, sequence: 2)
        harness.depth(5, atMS: 2, sequence: 1)
        #expect(harness.pairs.map { [$0.colorSlot, $0.depthSlot] } == [[0, 5]])
        // Colour 1 is newer than the pair: it stays pending, nothing is released yet.
        #expect(harness.releasedColor.isEmpty)
        harness.depth(6, atMS: 35, sequence: 2)
        #expect(harness.pairs.last.map { [$0.colorSlot, $0.depthSlot] } == [1, 6])
    }

    @Test func frameFartherThanToleranceIsNotPairedAndStaleFramesAreReleased() {
        var harness = Harness(toleranceMS: 10)
        harness.depth(3, atMS: 0, sequence: 1)
        harness.color(0, atMS: 50, sequence: 1)
        #expect(harness.pairs.isEmpty)
        #expect(harness.releasedDepth == [3])
        #expect(harness.sync.statistics.unmatchedDepth == 1)
    }

    @Test func halfRateDepthPairsEveryOtherColourAndReleasesTheRest() {
        var harness = Harness(toleranceMS: 16)
        for frame in 0..<60 {
            harness.color(frame % 4, atMS: UInt64(frame) * 33, sequence: UInt32(frame))
            if frame % 2 == 0 { harness.depth(frame / 2 % 4, atMS: UInt64(frame) * 33 + 3, sequence: UInt32(frame / 2)) }
        }
        #expect(harness.pairs.count == 30)
        // Every colour frame is either paired or given back, except the newest still waiting.
        #expect(harness.pairs.count + harness.releasedColor.count == 59)
        #expect(harness.sync.statistics.colorSequenceGaps == 0)
    }

    @Test func stalledDepthStreamHoldsAtMostTheCapacityOfColourFrames() {
        var harness = Harness(toleranceMS: 16)
        for frame in 0..<20 { harness.color(frame, atMS: UInt64(frame) * 33, sequence: UInt32(frame)) }
        #expect(harness.pairs.isEmpty)
        #expect(harness.releasedColor == Array(0..<(20 - FrameSync.pendingCapacity)))
        var drained = SlotList()
        harness.sync.drain(into: &drained)
        #expect(drained.colorCount == FrameSync.pendingCapacity)
    }

    @Test func sequenceGapsCountMissingFrames() {
        var harness = Harness(toleranceMS: 16)
        harness.color(0, atMS: 0, sequence: 10)
        harness.color(1, atMS: 33, sequence: 11)
        harness.color(2, atMS: 133, sequence: 14)
        harness.depth(0, atMS: 0, sequence: 3)
        harness.depth(1, atMS: 66, sequence: 5)
        #expect(harness.sync.statistics.colorSequenceGaps == 2)
        #expect(harness.sync.statistics.depthSequenceGaps == 1)
    }
}
