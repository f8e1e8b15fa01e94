/// How an import ended, which is also the command's exit status (see the contract in
/// `StickImport`).
public enum ImportOutcome: Equatable, Sendable {
    /// A new generation is current (exit 0).
    case newGeneration(String)
    /// The stick holds exactly what the current generation holds: nothing was written (exit 2,
    /// as the contract gives 0 only to a new generation; the unit counts 2 as success and asks
    /// the booth to reload only on 0).
    case unchanged(String)
    /// The photo export finished: this many photos are on the stick now (exit 0).
    case photosCopied(Int)
    /// Nothing on the stick could be used; current unchanged (exit 2).
    case nothingUsable
    /// A runtime failure (full disk, I/O error, the stick went away); current unchanged (exit 1).
    case failed(String)

    public var exitStatus: Int32 {
        switch self {
        case .newGeneration, .photosCopied: return 0
        case .nothingUsable, .unchanged: return 2
        case .failed: return 1
        }
    }
}

/// Everything one import said and how it ended.
public struct ImportReport: Sendable {
    public var lines: [ImportLine] = []
    public var outcome: ImportOutcome = .nothingUsable
    /// The outcome in a few words for the booth's screen (`ImportNotice`): "12 BACKDROPS IN, 2
    /// SKIPPED", "STICK: NOTHING NEW", "IMPORT FAILED: DISK FULL - OLD SET KEPT".
    public var screenText = ""
    /// Parts of the stick refused (a backdrop, a refused config counts once however many problems
    /// its lines name).
    public private(set) var skippedItems = 0
    /// The stick's `backdrop.conf` was read and refused (the current config stays).
    public internal(set) var configRefused = false

    public init() {}

    mutating func taken(_ text: String) { lines.append(ImportLine(.taken, text)) }
    /// A skipped line; `item: false` for a line that explains a part already counted.
    mutating func skipped(_ text: String, item: Bool = true) {
        lines.append(ImportLine(.skipped, text))
        if item { skippedItems += 1 }
    }
    mutating func countSkipped(_ count: Int = 1) { skippedItems += count }
    mutating func note(_ text: String) { lines.append(ImportLine(.note, text)) }
}
