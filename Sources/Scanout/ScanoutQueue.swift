/// Which scanout slot is where: composed by the pipeline (pending), handed to the kernel and
/// waiting for vblank (queued), or on screen (current). At most one is queued: a frame that
/// arrives while another is still queued is dropped, never queued behind it, so latency stays
/// fixed. Pure bookkeeping; the sink drives it from commits and page-flip events.
public struct ScanoutQueue: Equatable {
    public let slotCount: Int
    public private(set) var queued: Int? = nil
    public private(set) var current: Int? = nil
    public private(set) var dropped = 0
    public private(set) var flips = 0

    public init(slotCount: Int) {
        precondition(slotCount >= 2)
        self.slotCount = slotCount
    }

    /// A slot the pipeline may write into: neither on screen nor waiting to be.
    public func isFree(_ slot: Int) -> Bool { slot != queued && slot != current }

    /// Whether a new frame can be queued now.
    public var canQueue: Bool { queued == nil }

    /// Records a frame the sink could not queue.
    public mutating func drop() { dropped += 1 }

    /// The kernel accepted `slot`; it is shown at the next vblank. Re-queuing the slot on screen
    /// is allowed (a flip to the same buffer), so a pipeline that drew into it is not stuck.
    public mutating func queue(_ slot: Int) {
        precondition(queued == nil && slot >= 0 && slot < slotCount)
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

    /// A modeset put `slot` on screen directly (start-up, display re-plugged); nothing is queued.
    public mutating func shown(_ slot: Int) {
        queued = nil
        current = slot
    }
}
