/// `[buttons]`: which GPIO lines are the three buttons. Lines are found by name, never by number,
/// because chip and offset numbering differ between boards and kernels.
public struct ButtonSettings: Equatable, Sendable {
    /// Board whose facts (board/<name>/) name the lines.
    public var board: String = "rpi4"
    public var chip: DeviceChoice = .auto
    public var next: String = "BACKDROP_NEXT"
    public var previous: String = "BACKDROP_PREV"
    public var shutter: String = "BACKDROP_SHUTTER"
    /// Edges closer together than this are contact bounce, milliseconds.
    public var debounceMS: Int = 30
    /// A press held at least this long is a long press, milliseconds.
    public var longPressMS: Int = 800

    public init() {}
}
