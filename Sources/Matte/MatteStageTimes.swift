/// The matte's stages as `MatteStageTimes` reports them, in the order they run.
public enum MatteStage: Int {
    /// Depth into the work grid (as is, resampled or reprojected).
    case depth
    /// The band: auto mode's subject search (SubjectTracker).
    case band
    /// The floor plane: sampling, RANSAC and refit (FloorTracker).
    case floorFit
    /// Each reading's floor mark (on the floor, its foot zone, neither).
    case floorMarks
    /// People by depth continuity (DepthSegments), or the band classification when too noisy.
    case regions
    /// Holes and specks (RunLabeller).
    case labels
    /// Temporal smoothing.
    case temporal
    /// Up to colour resolution and the edges and shadow strips decided by colour (ColourEdges).
    case colourEdges
    /// The box feather (and colour's decisions put back after it).
    case feather
    /// The camera's background taken out of the rim (RimDecontamination) and laid into a copy.
    case decontamination

    public static let count = 10

    public var name: String {
        switch self {
        case .depth: return "depth"
        case .band: return "band"
        case .floorFit: return "floor_fit"
        case .floorMarks: return "floor_marks"
        case .regions: return "regions"
        case .labels: return "labels"
        case .temporal: return "temporal"
        case .colourEdges: return "colour_edges"
        case .feather: return "feather"
        case .decontamination: return "decontamination"
        }
    }
}

/// Time per matte stage of the last frame, for `backdrop bench` (set as `MatteEngine.stageTimes`).
/// The engine reads `clock` at each stage boundary only when one is set: on the frame path there
/// is none, and the cost is one nil check per stage. The clock is the caller's (Matte reads no
/// clock of its own). Storage is allocated in `init`; marking allocates nothing. Not thread-safe:
/// it belongs to the engine's thread.
public final class MatteStageTimes {
    public let clock: () -> UInt64
    /// Nanoseconds per stage (indexed by `MatteStage.rawValue`) of the last frame; a stage that
    /// did not run that frame (no colour frame, no decontamination) keeps 0.
    public private(set) var nanoseconds: [UInt64]
    private var last: UInt64 = 0

    public init(clock: @escaping () -> UInt64) {
        self.clock = clock
        nanoseconds = [UInt64](repeating: 0, count: MatteStage.count)
    }

    /// A new frame: every stage back to 0, and the clock read.
    func startFrame() {
        for i in 0..<MatteStage.count { nanoseconds[i] = 0 }
        last = clock()
    }

    /// A stage starts now, outside the timed ones (e.g. the decontamination, a call of its own).
    func resume() { last = clock() }

    /// `stage` ended now: the time since the last mark is added to it.
    func mark(_ stage: MatteStage) {
        let now = clock()
        nanoseconds[stage.rawValue] &+= now &- last
        last = now
    }
}
