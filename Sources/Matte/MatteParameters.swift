/// The thresholds a person tunes in `[matte]` of backdrop.conf. Defaults match config/backdrop.conf.
public struct MatteParameters: Equatable, Sendable {
    public enum Mode: UInt8, Sendable, CaseIterable {
        case fixed
        case auto

        public var name: String { self == .fixed ? "fixed" : "auto" }
        public static func named(_ name: String) -> Mode? {
            name == "fixed" ? .fixed : name == "auto" ? .auto : nil
        }
    }

    public var mode: Mode = .auto
    /// Depth band kept as foreground in fixed mode, millimetres.
    public var nearMM: Int = 300
    public var farMM: Int = 2000
    /// Auto mode: far edge = subject depth + margin.
    public var marginMM: Int = 250
    /// Auto mode: the far edge moves only when the subject moved more than this.
    public var hysteresisMM: Int = 80
    /// Auto mode: fraction (percent) of the frame's width and height searched for the subject.
    public var regionPercent: Int = 60
    /// Foreground islands smaller than this many depth pixels are dropped as specks.
    public var minimumBlobPixels: Int = 400
    /// Edge softening radius in colour pixels (0 = hard edge).
    public var featherPixels: Int = 3
    /// Temporal smoothing weight of the previous alpha, percent (0 = none). Applied only where
    /// depth is steady so a moving subject is not smeared.
    public var temporalPercent: Int = 50
    /// Auto mode: a subject is searched for only between nearMM and this distance, millimetres;
    /// beyond it the booth counts as empty and the matte is clear.
    public var subjectMaximumMM: Int = 4000

    public init() {}
}
