import Testing
@testable import Frames

@Suite struct ScanoutQueueTests {
    @Test func slotMovesQueuedThenCurrentAndFreesThePrevious() {
        var queue = ScanoutQueue(slotCount: 3)
        queue.shown(2)
        #expect(!queue.isFree(2))
        queue.queue(0)
        #expect(!queue.isFree(0) && !queue.isFree(2) && queue.isFree(1))
        #expect(queue.flipped() == 2)
        #expect(queue.current == 0 && queue.queued == nil)
        #expect(queue.isFree(2))
        #expect(queue.flips == 1)
    }

    @Test func aFrameArrivingWhileOneIsQueuedIsDroppedNotQueued() {
        var queue = ScanoutQueue(slotCount: 3)
        queue.shown(2)
        queue.queue(0)
        #expect(!queue.canQueue)
        queue.drop()
        #expect(queue.queued == 0)
        #expect(queue.dropped == 1)
        queue.flipped()
        #expect(queue.canQueue)
    }

    @Test func flipWithoutAQueuedSlotChangesNothing() {
        var queue = ScanoutQueue(slotCount: 2)
        queue.shown(1)
        #expect(queue.flipped() == nil)
        #expect(queue.current == 1 && queue.flips == 0)
    }

    @Test func requeueingTheSlotOnScreenFreesNothing() {
        var queue = ScanoutQueue(slotCount: 2)
        queue.shown(1)
        queue.queue(1)
        #expect(queue.flipped() == nil)
        #expect(queue.current == 1)
    }

    @Test func modesetForgetsTheQueuedSlot() {
        var queue = ScanoutQueue(slotCount: 3)
        queue.shown(2)
        queue.queue(0)
        queue.shown(2)
        #expect(queue.canQueue && queue.current == 2 && queue.isFree(0))
    }
}

@Suite struct ScanoutQueuePendingTests {
    @Test func takeGivesOnlySlotsNeitherPendingQueuedNorShown() {
        var queue = ScanoutQueue(slotCount: 3)
        queue.shown(2)
        let first = queue.take()
        #expect(first == 0)
        queue.queue(0)
        #expect(queue.take() == 1)
        // Everything is busy: on screen, queued, being composed.
        #expect(queue.take() == nil)
        queue.flipped()
        #expect(queue.take() == 2)
    }

    @Test func abandonedSlotIsFreeAgain() {
        var queue = ScanoutQueue(slotCount: 2)
        let slot = queue.take()!
        #expect(!queue.isFree(slot) && queue.isPending(slot))
        queue.abandon(slot)
        #expect(queue.isFree(slot))
    }
}
