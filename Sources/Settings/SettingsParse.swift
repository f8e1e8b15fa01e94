/// The verdict on one config file: complete valid settings, or the reasons there are none.
/// There is no partial result, so an invalid file can never be half applied.
public enum SettingsParse: Equatable, Sendable {
    /// Warnings: unknown sections and keys (ignored), and combinations that work but look unmeant.
    case valid(Settings, warnings: [String])
    /// Every problem found, in line order, each naming file, line, section, key, value and what is allowed.
    case invalid(problems: [String], warnings: [String])

    public var settings: Settings? {
        if case .valid(let settings, _) = self { return settings }
        return nil
    }

    public var problems: [String] {
        if case .invalid(let problems, _) = self { return problems }
        return []
    }

    public var warnings: [String] {
        switch self {
        case .valid(_, let warnings), .invalid(_, let warnings): return warnings
        }
    }
}
