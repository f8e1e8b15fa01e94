/// `[looks]`: which looks the look gesture cycles through, the one shown at start, and where the
/// looks a stick brought live. The names are checked for spelling here; whether each names a
/// built-in look or one of the folder's is checked where the looks are loaded (the folder is
/// read there, not by the config parser).
public struct LookSettings: Equatable, Sendable {
    public var cycle: [String] = ["none", "mono", "noir", "sepia", "vintage", "vivid", "thermal", "xray"]
    public var start: String = "none"
    /// looks.txt and *.cube (see the Looks module's `LooksFile`); missing is fine.
    public var directory: String = "/var/lib/backdrop/current/looks"

    public init() {}
}
