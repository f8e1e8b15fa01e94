/// A debounced press of one button, classified by how long it lasted.
public struct ButtonGesture: Equatable, Sendable {
    public enum Kind: UInt8, Sendable {
        /// Released before the long-press threshold.
        case shortPress
        /// Still down when the long-press threshold passed; reported once per press, while held,
        /// so the box can react without waiting for the release.
        case held
        /// Released at or after the long-press threshold (always preceded by `held`).
        case longPress
        /// Next and previous held down together for `ButtonClassifier.chordNanoseconds` (role
        /// `.next`; reported once, while held). Neither press gives a gesture of its own then.
        case bothHeld

        public var name: String {
            switch self {
            case .shortPress: return "short"
            case .held: return "held"
            case .longPress: return "long"
            case .bothHeld: return "both held"
            }
        }
    }

    public var role: ButtonRole
    public var kind: Kind
    /// CLOCK_MONOTONIC nanoseconds: the release edge for short and long presses, the moment the
    /// threshold passed for `held`.
    public var nanoseconds: UInt64
    /// How long the button had been down at that moment.
    public var durationNanoseconds: UInt64

    public init(role: ButtonRole, kind: Kind, nanoseconds: UInt64, durationNanoseconds: UInt64) {
        self.role = role
        self.kind = kind
        self.nanoseconds = nanoseconds
        self.durationNanoseconds = durationNanoseconds
    }
}
