/// `[buttons]`: which GPIO lines are the three buttons. Lines are found by name, never by number,
/// because chip and offset numbering differ between boards and kernels.
public struct ButtonSettings: Equatable, Sendable {
    /// Board whose facts (board/<name>/) name the lines.
    public var board: String = "rpi4"
    /// Line of each button (a line name, or chip-label:offset); nil keeps the line that
    /// board/<board>/buttons.conf gives the role.
    public var next: String? = nil
    public var previous: String? = nil
    public var shutter: String? = nil
    /// Edges closer together than this are contact bounce, milliseconds.
    public var debounceMS: Int = 30
    /// A press held at least this long is a long press, milliseconds.
    public var longPressMS: Int = 800

    public init() {}
}
