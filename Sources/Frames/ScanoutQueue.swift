/// Which scanout slot is where: taken by the pipeline to compose into (pending), handed to the
/// kernel and waiting for vblank (queued), or on screen (current). At most one is queued: a frame
/// that arrives while another is still queued waits as pending or is dropped, never queued behind
/// it, so latency stays fixed. Pure bookkeeping; the owner drives it from commits and page-flip
/// events. A slot is drawn into only after `take` gave it out, which it does only for a slot that
/// is neither pending, queued nor current: that is the whole guarantee against drawing into what
/// the display reads.
///
/// Indices from `slotCount` on are direct slots: a camera buffer the display scans out as it is
/// (`FrameSink.directSlot`). They are queued and shown like output slots but never taken, so
/// nothing composes into them; the owner gives the camera buffer back when `flipped` or `shown`
/// says it left the screen.
public struct ScanoutQueue: Equatable {
    public let slotCount: Int
    public private(set) var queued: Int? = nil
    public private(set) var current: Int? = nil
    /// Bit n set: slot n was taken to be composed into and is not yet queued.
    public private(set) var pendingMask: UInt32 = 0
    public private(set) var dropped = 0
    public private(set) var flips = 0

    public init(slotCount: Int) {
        precondition(slotCount >= 2 && slotCount <= 32)
        self.slotCount = slotCount
    }

    /// A slot the pipeline may write into: neither on screen, waiting to be, nor taken already.
    public func isFree(_ slot: Int) -> Bool {
        slot != queued && slot != current && pendingMask & (1 << UInt32(slot)) == 0
    }

    public func isPending(_ slot: Int) -> Bool { slot < slotCount && pendingMask & (1 << UInt32(slot)) != 0 }

    /// A camera buffer shown as it is, not an output slot.
    public func isDirect(_ slot: Int) -> Bool { slot >= slotCount }

    /// Takes a free slot to compose into (it becomes pending), or nil when every slot is busy.
    public mutating func take() -> Int? {
        for slot in 0..<slotCount where isFree(slot) {
            pendingMask |= 1 << UInt32(slot)
            return slot
        }
        return nil
    }

    /// Gives back a pending slot that will not be shown (the frame was dropped).
    public mutating func abandon(_ slot: Int) {
        pendingMask &= ~(1 << UInt32(slot))
    }

    /// Whether a new frame can be queued now.
    public var canQueue: Bool { queued == nil }

    /// Records a frame the sink could not queue.
    public mutating func drop() { dropped += 1 }

    /// The kernel accepted `slot`; it is shown at the next vblank. Re-queuing the slot on screen
    /// is allowed (a flip to the same buffer), so a pipeline that drew into it is not stuck.
    public mutating func queue(_ slot: Int) {
        precondition(queued == nil && slot >= 0)
        if slot < slotCount { pendingMask &= ~(1 << UInt32(slot)) }
        queued = slot
    }

    /// The page flip for the queued slot completed; returns the slot that left the screen.
    @discardableResult
    public mutating func flipped() -> Int? {
        guard let slot = queued else { return nil }
        let previous = current == slot ? nil : current
        current = slot
        queued = nil
        flips += 1
        return previous
    }

    /// A modeset (or a sink that stores synchronously) put `slot` on screen directly; nothing is
    /// queued. Returns the slot that left the screen, as `flipped` does.
    @discardableResult
    public mutating func shown(_ slot: Int) -> Int? {
        if slot < slotCount { pendingMask &= ~(1 << UInt32(slot)) }
        let previous = current == slot ? nil : current
        queued = nil
        current = slot
        return previous
    }
}
