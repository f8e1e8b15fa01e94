/// The booth's timings. `countdownSeconds` comes from `[photos] countdown_s`; the message
/// durations are fixed by what a person in front of a TV needs to read them.
public struct BoothConfiguration: Equatable, Sendable {
    /// Seconds counted down on screen before a photo; 0 takes it at once.
    public var countdownSeconds: Int
    /// How long a backdrop's name stays after a switch.
    public var backdropNameNanoseconds: UInt64 = 2_000_000_000
    /// How long "PHOTO SAVED" stays.
    public var photoSavedNanoseconds: UInt64 = 2_000_000_000
    /// How long a failure (photo, import) or a hint stays: longer, because it has a reason to read.
    public var failureNanoseconds: UInt64 = 5_000_000_000
    /// How long an import's closing summary stays.
    public var importSummaryNanoseconds: UInt64 = 6_000_000_000
    /// How long a stick's outcome stays at least before the next step's replaces it (a failure
    /// stays its whole `failureNanoseconds`): long enough to read a few words.
    public var reportReadNanoseconds: UInt64 = 3_000_000_000

    public init(countdownSeconds: Int = 3) {
        precondition(countdownSeconds >= 0)
        self.countdownSeconds = countdownSeconds
    }

    /// One countdown step: the digits change once a second.
    public static let secondNanoseconds: UInt64 = 1_000_000_000
}
