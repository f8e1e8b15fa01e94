import FrameSync

/// Per-stage and end-to-end latency with drop counts. I/O thread only: compute's timings come
/// back inside each frame's result and are recorded here by the I/O thread, so the report on
/// SIGUSR1 reads what no other thread writes.
public final class PipelineStatistics {
    /// Capture timestamp → pair handed to compute.
    public var sync = LatencyHistogram()
    /// Matte time.
    public var matte = LatencyHistogram()
    /// Compose time over all bands.
    public var compose = LatencyHistogram()
    /// Handing the frame to the sink (a file write; a display's non-blocking commit).
    public var present = LatencyHistogram()
    /// Capture timestamp → frame shown or stored.
    public var endToEnd = LatencyHistogram()
    /// Pairs dropped because compute was still busy with an earlier one or no output slot was free.
    public var droppedLate = 0
    /// Frames the sink refused.
    public var droppedBySink = 0
    /// Frames shown.
    public var presented = 0
    /// Of those, camera buffers the display showed as they are (the camera view, zero-copy); their
    /// CPU cost is the commit alone, in `present`.
    public var presentedDirectly = 0
    public var syncStatistics = SyncStatistics()

    public init() {}

    public var report: String {
        var lines = "frames presented: \(presented), dropped late: \(droppedLate), dropped by sink: \(droppedBySink), "
        lines += "camera buffers shown as they are: \(presentedDirectly)\n"
        lines += "sync: pairs \(syncStatistics.pairs), unmatched colour \(syncStatistics.unmatchedColor), "
        lines += "unmatched depth \(syncStatistics.unmatchedDepth), sequence gaps colour \(syncStatistics.colorSequenceGaps) "
        lines += "depth \(syncStatistics.depthSequenceGaps)\n"
        lines += "latency sync:       \(sync.summary)\n"
        lines += "latency matte:      \(matte.summary)\n"
        lines += "latency compose:    \(compose.summary)\n"
        lines += "latency present:    \(present.summary)\n"
        lines += "latency end-to-end: \(endToEnd.summary)"
        return lines
    }
}
