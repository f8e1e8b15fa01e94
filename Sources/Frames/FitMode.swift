/// How an image of one aspect ratio is mapped onto an output of another.
public enum FitMode: UInt8, Sendable, CaseIterable {
    /// Scale to cover the output, cropping the overflow (no bars).
    case fill
    /// Scale to fit inside the output, letterboxing with black.
    case fit
    /// Scale each axis independently, distorting the aspect ratio.
    case stretch

    public var name: String {
        switch self {
        case .fill: return "fill"
        case .fit: return "fit"
        case .stretch: return "stretch"
        }
    }

    public static func named(_ name: String) -> FitMode? {
        for mode in allCases where mode.name == name { return mode }
        return nil
    }
}
