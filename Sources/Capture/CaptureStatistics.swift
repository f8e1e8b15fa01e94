import Frames
import KernelIO

/// Counters for one camera, updated on the frame path without allocating.
public struct CaptureStatistics: Equatable, Sendable {
    /// Frames handed to the caller.
    public var frames: UInt64 = 0
    /// Frames the driver skipped, from holes in the sequence numbers.
    public var sequenceGaps: UInt64 = 0
    /// Buffers the driver flagged as erroneous, or MJPEG frames that did not decode; re-queued
    /// at once and never handed out.
    public var badFrames: UInt64 = 0
    /// Timestamps not later than the previous frame's (should stay 0 with a monotonic clock).
    public var nonMonotonicStamps: UInt64 = 0
    /// True once a buffer carried a CLOCK_MONOTONIC kernel timestamp; false means timestamps are
    /// taken at dequeue time because the driver's are on another clock.
    public var kernelTimestamps = false
    public var last: FrameStamp? = nil
    /// DQBUF failures other than "nothing ready" and an unplug, with the last one's errno.
    public var dequeueErrors: UInt64 = 0
    public var lastDequeueError: Errno? = nil

    public init() {}

    /// Accounts for one delivered frame. A sequence that goes backwards (the stream restarted)
    /// is not a gap.
    public mutating func record(_ stamp: FrameStamp) {
        if let last {
            if stamp.sequence > last.sequence { sequenceGaps += UInt64(stamp.sequence - last.sequence - 1) }
            if stamp.nanoseconds <= last.nanoseconds { nonMonotonicStamps += 1 }
        }
        last = stamp
        frames += 1
    }

    /// Forgets the previous frame, so a restarted stream's first sequence is not counted as a gap.
    public mutating func restart() { last = nil }

    public var summary: String {
        var text = "\(frames) frames, \(sequenceGaps) skipped by the driver, \(badFrames) bad, \(nonMonotonicStamps) out of order"
        text += ", \(dequeueErrors) DQBUF errors"
        if let lastDequeueError { text += " (last: \(lastDequeueError.description))" }
        return text
    }
}
