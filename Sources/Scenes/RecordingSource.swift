import Frames
import KernelIO

/// Plays a `Recording` as a `FrameSource`: each frame is decoded into a free slot and announced
/// as a colour event then a depth event with the same stamp, so frame sync pairs them exactly.
///
/// Stamps are CLOCK_MONOTONIC: the time playback started plus frame number times the frame
/// period. `paced` playback sleeps until each stamp (a live-like demo); unpaced playback delivers
/// as fast as slots are released (offline rendering). With `loops` the recording restarts after
/// the last frame; otherwise the source reports `.ended`. A frame that fails to decode also ends
/// playback, with the reason kept in `failure`.
public struct RecordingSource: FrameSource, ~Copyable {
    public static let slotCount = 3

    public let recording: Recording
    public let paced: Bool
    public let loops: Bool
    public private(set) var failure: RecordingError?
    private let colorSlots: [RecordingSlot]
    private let depthSlots: [RecordingSlot]
    private var colorBusy: [Bool]
    private var depthBusy: [Bool]
    private var nextFrame = 0
    private var delivered = 0
    private var pendingDepth: (slot: Int, stamp: FrameStamp)?
    private var startNanoseconds: UInt64 = 0
    private var finished = false

    public init(recording: Recording, paced: Bool, loops: Bool) throws(SystemError) {
        self.recording = recording
        self.paced = paced
        self.loops = loops
        var colors: [RecordingSlot] = []
        var depths: [RecordingSlot] = []
        for _ in 0..<Self.slotCount {
            colors.append(RecordingSlot(try PixelBuffer(allocating: .rgb24, size: recording.colorSize)))
            depths.append(RecordingSlot(try PixelBuffer(allocating: .z16, size: recording.depthSize)))
        }
        colorSlots = colors
        depthSlots = depths
        colorBusy = [Bool](repeating: false, count: Self.slotCount)
        depthBusy = [Bool](repeating: false, count: Self.slotCount)
    }

    public var colorFormat: PixelFormat { .rgb24 }
    public var colorSize: FrameSize { recording.colorSize }
    public var depthSize: FrameSize { recording.depthSize }
    public var depthUnitMM: Float { recording.unitMM }
    public var frameRate: Int { recording.frameRate }
    public var summary: String {
        "recording \(recording.path): \(recording.frameCount) frames, colour \(colorSize.description) RGB24, "
            + "depth \(depthSize.description) Z16, \(frameRate) fps" + (paced ? ", paced" : "") + (loops ? ", looping" : "")
    }

    public func colorView(slot: Int) -> ImageView { colorSlots[slot].buffer.view }
    public func depthView(slot: Int) -> ImageView { depthSlots[slot].buffer.view }

    public mutating func nextEvent(timeoutNanoseconds: UInt64) -> SourceEvent {
        if let pending = pendingDepth {
            pendingDepth = nil
            return .depth(slot: pending.slot, stamp: pending.stamp)
        }
        if finished { return .ended }
        if nextFrame == recording.frameCount {
            guard loops else {
                finished = true
                return .ended
            }
            nextFrame = 0
        }
        guard let colorSlot = colorBusy.firstIndex(of: false), let depthSlot = depthBusy.firstIndex(of: false) else {
            // Every slot is still held downstream; nothing can be produced until one comes back.
            return .idle
        }
        let period = 1_000_000_000 / UInt64(max(1, recording.frameRate))
        if delivered == 0 { startNanoseconds = MonotonicClock.nowNanoseconds() }
        let due = startNanoseconds + UInt64(delivered) * period
        if paced {
            let now = MonotonicClock.nowNanoseconds()
            if due > now {
                if due - now > timeoutNanoseconds {
                    if timeoutNanoseconds > 0 { MonotonicClock.sleep(nanoseconds: timeoutNanoseconds) }
                    return .idle
                }
                MonotonicClock.sleep(nanoseconds: due - now)
            }
        }
        do throws(RecordingError) {
            try recording.load(frame: nextFrame, color: colorSlots[colorSlot].buffer.view,
                               depth: depthSlots[depthSlot].buffer.view)
        } catch {
            failure = error
            finished = true
            return .ended
        }
        let stamp = FrameStamp(nanoseconds: due, sequence: UInt32(truncatingIfNeeded: delivered))
        colorBusy[colorSlot] = true
        depthBusy[depthSlot] = true
        nextFrame += 1
        delivered += 1
        pendingDepth = (depthSlot, stamp)
        return .color(slot: colorSlot, stamp: stamp)
    }

    /// Paced: the next frame's stamp; nil while every slot is held (a release comes first).
    public var nextFrameDueNanoseconds: UInt64? {
        if pendingDepth != nil || finished || !paced || delivered == 0 { return 0 }
        guard colorBusy.contains(false), depthBusy.contains(false) else { return nil }
        return startNanoseconds + UInt64(delivered) * (1_000_000_000 / UInt64(max(1, recording.frameRate)))
    }

    public mutating func releaseColor(slot: Int) { colorBusy[slot] = false }
    public mutating func releaseDepth(slot: Int) { depthBusy[slot] = false }
}
