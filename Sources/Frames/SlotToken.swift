/// The right to use slot `index` of a ring. Move-only, so a buffer is in exactly one stage at a
/// time: whoever holds the token may touch the slot, and gives it back by consuming it.
public struct SlotToken: ~Copyable {
    public let index: Int
    public var stamp: FrameStamp

    public init(index: Int, stamp: FrameStamp = FrameStamp(nanoseconds: 0, sequence: 0)) {
        self.index = index
        self.stamp = stamp
    }
}
