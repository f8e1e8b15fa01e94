/// Slots FrameSync gives back to the source after one arrival. Fixed capacity so the frame path
/// does not allocate: one arrival can release at most every pending frame of both sides.
public struct SlotList {
    public private(set) var colorSlots: (Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0)
    public private(set) var depthSlots: (Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0)
    public private(set) var colorCount = 0
    public private(set) var depthCount = 0

    public init() {}

    public mutating func removeAll() {
        colorCount = 0
        depthCount = 0
    }

    mutating func appendColor(_ slot: Int) {
        Self.store(slot, at: colorCount, in: &colorSlots)
        colorCount += 1
    }

    mutating func appendDepth(_ slot: Int) {
        Self.store(slot, at: depthCount, in: &depthSlots)
        depthCount += 1
    }

    public func color(_ index: Int) -> Int { Self.load(index, from: colorSlots) }
    public func depth(_ index: Int) -> Int { Self.load(index, from: depthSlots) }

    private static func store(_ slot: Int, at index: Int, in slots: inout (Int, Int, Int, Int, Int)) {
        switch index {
        case 0: slots.0 = slot
        case 1: slots.1 = slot
        case 2: slots.2 = slot
        case 3: slots.3 = slot
        case 4: slots.4 = slot
        default: preconditionFailure("FrameSync released more slots than it can hold")
        }
    }

    private static func load(_ index: Int, from slots: (Int, Int, Int, Int, Int)) -> Int {
        switch index {
        case 0: return slots.0
        case 1: return slots.1
        case 2: return slots.2
        case 3: return slots.3
        default: return slots.4
        }
    }
}
