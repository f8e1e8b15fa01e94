/// What the booth has already taken of the stick's notices (`ImportNotice`, the contract there):
/// the last serial per step. A serial not seen yet is news; the ones present when the booth
/// starts are seen. Reads DIR's small notice files: the I/O thread on SIGHUP, never the frame path.
public struct ImportNoticeSeen: Sendable {
    public let data: String
    private var serials: [Int]

    /// The notices in DIR now are taken as seen: an outcome from before the booth started is not news.
    public init(data: String) {
        self.data = data
        serials = ImportNotice.Step.allCases.map { ImportNotice.read(data: data, step: $0)?.serial ?? 0 }
    }

    /// The outcomes not taken yet, in step order (one SIGHUP may come after several steps), now seen.
    public mutating func takeNew() -> [ImportNotice] {
        var news: [ImportNotice] = []
        for step in ImportNotice.Step.allCases {
            guard let notice = ImportNotice.read(data: data, step: step), notice.serial != serials[step.rawValue] else { continue }
            serials[step.rawValue] = notice.serial
            news.append(notice)
        }
        return news
    }

    /// Whether a SIGHUP that brought `news` has the booth reload config and backdrops: one with no
    /// news (a rollback, a person) does, as does one where an import made a new generation
    /// current; an export's, an unmount's or a failed import's outcome alone does not.
    public static func reloads(after news: [ImportNotice]) -> Bool {
        news.isEmpty || news.contains { $0.switchedCurrent }
    }
}
