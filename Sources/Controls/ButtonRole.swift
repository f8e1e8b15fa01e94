/// What a physical button is for. The board's data (board/<board>/buttons.conf) maps each role to
/// a GPIO line name; the settings may override the names.
public enum ButtonRole: UInt8, Sendable, CaseIterable {
    case next
    case previous
    case shutter

    public var name: String {
        switch self {
        case .next: return "next"
        case .previous: return "previous"
        case .shutter: return "shutter"
        }
    }

    public static func named(_ name: String) -> ButtonRole? {
        for role in allCases where role.name == name { return role }
        return nil
    }
}
