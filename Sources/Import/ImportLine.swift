import KernelIO

/// One line of the import's account: something taken, something skipped with its reason, or a
/// note. The command prints each as it is; the booth shows them on screen.
public struct ImportLine: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        /// A part that is in the new generation ("backdrop sunset.jpg: 1920x1080").
        case taken
        /// A part refused with its reason; what it would have replaced stays.
        case skipped
        /// Everything else worth saying ("no backgrounds/ on the stick: kept the current 12").
        case note
    }

    public let kind: Kind
    public let text: String

    /// Control characters in `text` (a config's unknown key or value quoted by the parser, a
    /// kernel message) are escaped: a line is printed, logged and shown as it is.
    public init(_ kind: Kind, _ text: String) {
        self.kind = kind
        self.text = TerminalText.escaped(text)
    }

    /// As printed: skipped parts carry a "skipped" prefix so a reader scanning the output sees them.
    public var rendered: String {
        switch kind {
        case .taken: return "taken: " + text
        case .skipped: return "skipped: " + text
        case .note: return text
        }
    }
}
