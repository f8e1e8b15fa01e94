import FrameSync

/// Per-stage and end-to-end latency with drop counts. Each histogram is written by one thread
/// only (noted per field); the summary is read after the threads have stopped or, on SIGUSR1,
/// while they run, where a torn count costs nothing worse than a sample.
public final class PipelineStatistics {
    /// Capture timestamp → pair complete (I/O thread).
    public var sync = LatencyHistogram()
    /// Matte time (compute thread).
    public var matte = LatencyHistogram()
    /// Compose time over all bands (compute thread).
    public var compose = LatencyHistogram()
    /// Handing the frame to the sink (compute thread).
    public var present = LatencyHistogram()
    /// Capture timestamp → frame shown or stored (compute thread).
    public var endToEnd = LatencyHistogram()
    /// Pairs dropped because compute was still busy with an earlier one (I/O thread).
    public var droppedLate = 0
    /// Frames the sink refused (compute thread).
    public var droppedBySink = 0
    /// Frames shown (compute thread).
    public var presented = 0
    public var syncStatistics = SyncStatistics()

    public init() {}

    public var report: String {
        var lines = "frames presented: \(presented), dropped late: \(droppedLate), dropped by sink: \(droppedBySink)\n"
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
