/// One key of backdrop.conf: where it lives, what it accepts.
public struct SettingKey: Sendable {
    public let section: String
    public let name: String
    let kind: SettingKind

    init(_ section: String, _ name: String, _ kind: SettingKind) {
        self.section = section
        self.name = name
        self.kind = kind
    }

    /// The allowed values as error messages and config/backdrop.conf spell them, with the unit.
    public var allowed: String { kind.allowed }
}
