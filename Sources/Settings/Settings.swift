import Matte

/// Everything backdrop.conf sets. Every field starts at its default, which is what an empty file
/// yields and what config/backdrop.conf documents.
public struct Settings: Equatable, Sendable {
    public var matte = MatteParameters()
    public var background = BackgroundSettings()
    public var camera = CameraSettings()
    public var sync = SyncSettings()
    public var output = OutputSettings()
    public var pipeline = PipelineSettings()
    public var buttons = ButtonSettings()
    public var photos = PhotoSettings()
    public var looks = LookSettings()

    public init() {}

    public static let defaults = Settings()

    /// Parses config `text`. Never reads a file: the caller reads it and passes `fileName`, which
    /// only labels messages ("backdrop.conf:12: ..."). Pure and thread-safe.
    public static func parse(_ text: String, fileName: String) -> SettingsParse {
        SettingsParser.parse(text, fileName: fileName)
    }
}
