/// What FrameSync did since start: pairs made, frames given back unmatched, frames the driver
/// skipped (sequence gaps).
public struct SyncStatistics: Equatable {
    public var pairs = 0
    public var unmatchedColor = 0
    public var unmatchedDepth = 0
    public var colorSequenceGaps = 0
    public var depthSequenceGaps = 0

    public init() {}
}
