import Frames

/// Pairs colour and depth frames by kernel timestamp. Pure: it is told about arrivals and says
/// which slots make a pair and which are stale and must go back to the camera.
///
/// Each side keeps a few unmatched frames, newest last, because the two streams are not in step:
/// a depth frame may arrive after the colour frame it belongs to has been followed by another.
/// A frame older than the other side's newest minus the tolerance can never pair any more
/// (timestamps only grow) and is released at once, so a stalled stream holds nothing.
public struct FrameSync {
    public static let pendingCapacity = 4

    public var toleranceNanoseconds: UInt64
    public private(set) var statistics = SyncStatistics()

    private var pendingColor: [PendingFrame]
    private var pendingDepth: [PendingFrame]
    private var lastColorSequence: UInt32?
    private var lastDepthSequence: UInt32?

    public init(toleranceNanoseconds: UInt64) {
        self.toleranceNanoseconds = toleranceNanoseconds
        pendingColor = []
        pendingDepth = []
        pendingColor.reserveCapacity(Self.pendingCapacity)
        pendingDepth.reserveCapacity(Self.pendingCapacity)
    }

    /// Half a frame period, the default tolerance: closer than that, two frames are the same instant.
    public static func defaultTolerance(frameRate: Int) -> UInt64 {
        UInt64(500_000_000 / max(frameRate, 1))
    }

    public mutating func offerColor(slot: Int, stamp: FrameStamp, releasing dropped: inout SlotList) -> SyncPair? {
        countGap(stamp.sequence, last: &lastColorSequence, gaps: &statistics.colorSequenceGaps)
        return offer(PendingFrame(slot: slot, nanoseconds: stamp.nanoseconds), isColor: true, dropped: &dropped)
    }

    public mutating func offerDepth(slot: Int, stamp: FrameStamp, releasing dropped: inout SlotList) -> SyncPair? {
        countGap(stamp.sequence, last: &lastDepthSequence, gaps: &statistics.depthSequenceGaps)
        return offer(PendingFrame(slot: slot, nanoseconds: stamp.nanoseconds), isColor: false, dropped: &dropped)
    }

    /// Gives back everything held, e.g. when the camera is closed.
    public mutating func drain(into dropped: inout SlotList) {
        for frame in pendingColor { dropped.appendColor(frame.slot) }
        for frame in pendingDepth { dropped.appendDepth(frame.slot) }
        pendingColor.removeAll(keepingCapacity: true)
        pendingDepth.removeAll(keepingCapacity: true)
        lastColorSequence = nil
        lastDepthSequence = nil
    }

    private mutating func offer(_ frame: PendingFrame, isColor: Bool, dropped: inout SlotList) -> SyncPair? {
        let (best, staleCount) = isColor ? Self.search(pendingDepth, for: frame, tolerance: toleranceNanoseconds)
                                         : Self.search(pendingColor, for: frame, tolerance: toleranceNanoseconds)
        if let best {
            let partner = isColor ? pendingDepth[best] : pendingColor[best]
            // Everything on the other side before the partner is older than what just paired.
            dropOther(first: best, isColor: isColor, dropped: &dropped)
            if isColor { pendingDepth.removeFirst() } else { pendingColor.removeFirst() }
            // Our own older frames lost their chance: the other side has moved past them.
            dropOwn(isColor: isColor, dropped: &dropped)
            statistics.pairs += 1
            return isColor
                ? SyncPair(colorSlot: frame.slot, depthSlot: partner.slot,
                           colorNanoseconds: frame.nanoseconds, depthNanoseconds: partner.nanoseconds)
                : SyncPair(colorSlot: partner.slot, depthSlot: frame.slot,
                           colorNanoseconds: partner.nanoseconds, depthNanoseconds: frame.nanoseconds)
        }
        // No partner: anything on the other side too old to meet a frame this new is stale.
        dropOther(first: staleCount, isColor: isColor, dropped: &dropped)
        if isColor {
            if pendingColor.count == Self.pendingCapacity {
                dropped.appendColor(pendingColor.removeFirst().slot)
                statistics.unmatchedColor += 1
            }
            pendingColor.append(frame)
        } else {
            if pendingDepth.count == Self.pendingCapacity {
                dropped.appendDepth(pendingDepth.removeFirst().slot)
                statistics.unmatchedDepth += 1
            }
            pendingDepth.append(frame)
        }
        return nil
    }

    /// Releases the `count` oldest frames of the side opposite to `isColor` as unmatched.
    private mutating func dropOther(first count: Int, isColor: Bool, dropped: inout SlotList) {
        guard count > 0 else { return }
        if isColor {
            for index in 0..<count { dropped.appendDepth(pendingDepth[index].slot) }
            statistics.unmatchedDepth += count
            pendingDepth.removeSubrange(0..<count)
        } else {
            for index in 0..<count { dropped.appendColor(pendingColor[index].slot) }
            statistics.unmatchedColor += count
            pendingColor.removeSubrange(0..<count)
        }
    }

    private mutating func dropOwn(isColor: Bool, dropped: inout SlotList) {
        if isColor {
            for frame in pendingColor { dropped.appendColor(frame.slot) }
            statistics.unmatchedColor += pendingColor.count
            pendingColor.removeAll(keepingCapacity: true)
        } else {
            for frame in pendingDepth { dropped.appendDepth(frame.slot) }
            statistics.unmatchedDepth += pendingDepth.count
            pendingDepth.removeAll(keepingCapacity: true)
        }
    }

    /// The closest frame within tolerance, and how many of the oldest can never pair again.
    private static func search(_ others: [PendingFrame], for frame: PendingFrame,
                               tolerance: UInt64) -> (best: Int?, stale: Int) {
        var best: Int? = nil
        var bestDistance = UInt64.max
        var stale = 0
        for index in others.indices {
            let other = others[index].nanoseconds
            let distance = other > frame.nanoseconds ? other - frame.nanoseconds : frame.nanoseconds - other
            if distance <= tolerance && distance < bestDistance {
                best = index
                bestDistance = distance
            }
            if other &+ tolerance < frame.nanoseconds { stale += 1 }
        }
        return (best, stale)
    }

    private func countGap(_ sequence: UInt32, last: inout UInt32?, gaps: inout Int) {
        if let previous = last, sequence != previous &+ 1, sequence > previous {
            gaps += Int(sequence - previous - 1)
        }
        last = sequence
    }
}
