import Frames
import KernelIO


/// The synthetic RGB-D scene as a frame source: renders frame i into a free slot and delivers its
/// colour, then its depth, stamped with the monotonic time of rendering. Slots are allocated
/// once; `paced` holds frames to the scene's frame rate like a camera, otherwise frames come as
/// fast as the pipeline takes them.
public final class SyntheticSource: FrameSource {
    public static let slotCount = 4

    public let colorFormat: PixelFormat
    public let colorSize: FrameSize
    public let depthSize: FrameSize
    public let frameRate: Int
    public var depthUnitMM: Float { 1 }
    public var summary: String {
        "synthetic scene \(colorSize.description) \(colorFormat.name) + depth \(depthSize.description) Z16 at \(frameRate) fps"
    }

    private let scene: SyntheticScene
    private let colors: [SlotBuffer]
    private let depths: [SlotBuffer]
    private var colorBusy: [Bool]
    private var depthBusy: [Bool]
    private let frameLimit: Int?
    private let paced: Bool
    private var nextFrame = 0
    private var pendingDepth: (slot: Int, stamp: FrameStamp)? = nil
    private var startNanoseconds: UInt64 = 0

    public init(seed: UInt64, colorFormat: PixelFormat, colorSize: FrameSize, depthSize: FrameSize,
                frameLimit: Int?, paced: Bool) throws(SystemError) {
        scene = try SyntheticScene.allocating(seed: seed, colourSize: colorSize, depthSize: depthSize)
        self.colorFormat = colorFormat
        self.colorSize = colorSize
        self.depthSize = depthSize
        self.frameRate = scene.frameRate
        self.frameLimit = frameLimit
        self.paced = paced
        var colorSlots: [SlotBuffer] = []
        var depthSlots: [SlotBuffer] = []
        for _ in 0..<Self.slotCount {
            colorSlots.append(try SlotBuffer(format: colorFormat, size: colorSize))
            depthSlots.append(try SlotBuffer(format: .z16, size: depthSize))
        }
        colors = colorSlots
        depths = depthSlots
        colorBusy = [Bool](repeating: false, count: Self.slotCount)
        depthBusy = [Bool](repeating: false, count: Self.slotCount)
    }

    public func colorView(slot: Int) -> ImageView { colors[slot].view }
    public func depthView(slot: Int) -> ImageView { depths[slot].view }

    public func nextEvent(timeoutNanoseconds: UInt64) -> SourceEvent {
        if let pending = pendingDepth {
            pendingDepth = nil
            return .depth(slot: pending.slot, stamp: pending.stamp)
        }
        if let frameLimit, nextFrame >= frameLimit { return .ended }
        guard let colorSlot = colorBusy.firstIndex(of: false),
              let depthSlot = depthBusy.firstIndex(of: false) else {
            // Every slot is still in the pipeline: like a camera with no queued buffer.
            if timeoutNanoseconds > 0 { MonotonicClock.sleep(nanoseconds: min(timeoutNanoseconds, 1_000_000)) }
            return .idle
        }
        if paced && !waitForFrameTime(timeoutNanoseconds: timeoutNanoseconds) { return .idle }
        scene.render(frame: nextFrame, color: colors[colorSlot].view, depth: depths[depthSlot].view, truth: nil)
        let stamp = FrameStamp(nanoseconds: MonotonicClock.nowNanoseconds(), sequence: UInt32(truncatingIfNeeded: nextFrame))
        nextFrame += 1
        colorBusy[colorSlot] = true
        depthBusy[depthSlot] = true
        pendingDepth = (depthSlot, stamp)
        return .color(slot: colorSlot, stamp: stamp)
    }

    /// Paced: when frame `nextFrame` is due; nil while every slot is held (a release comes first).
    public var nextFrameDueNanoseconds: UInt64? {
        if pendingDepth != nil || !paced || startNanoseconds == 0 { return 0 }
        if let frameLimit, nextFrame >= frameLimit { return 0 }
        guard colorBusy.contains(false), depthBusy.contains(false) else { return nil }
        return startNanoseconds + UInt64(nextFrame) * 1_000_000_000 / UInt64(max(frameRate, 1))
    }

    public func releaseColor(slot: Int) { colorBusy[slot] = false }
    public func releaseDepth(slot: Int) { depthBusy[slot] = false }

    /// Sleeps until frame `nextFrame` is due; false when that is further away than the time-out.
    private func waitForFrameTime(timeoutNanoseconds: UInt64) -> Bool {
        let now = MonotonicClock.nowNanoseconds()
        if startNanoseconds == 0 { startNanoseconds = now }
        let due = startNanoseconds + UInt64(nextFrame) * 1_000_000_000 / UInt64(max(frameRate, 1))
        guard due > now else { return true }
        if due - now > timeoutNanoseconds {
            if timeoutNanoseconds > 0 { MonotonicClock.sleep(nanoseconds: timeoutNanoseconds) }
            return false
        }
        MonotonicClock.sleep(nanoseconds: due - now)
        return true
    }
}
