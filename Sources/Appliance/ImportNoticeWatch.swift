import Import

/// The stick's outcomes as the booth takes them on SIGHUP (the contract is at `ImportNotice`):
/// one file per step (import, photo export, unmount), and in each a serial not seen yet is news,
/// the one present at start-up is not. While the rescan of an import's new generation runs, its
/// own count ("12 BACKDROPS") is held back so the import's text stays on screen. I/O thread only.
final class ImportNoticeWatch {
    private let data: String?
    /// The last serial taken, per step (`ImportNotice.Step.rawValue`).
    private var seen: [Int]
    private var rescanHeld = false

    init(configPath: String) {
        let data = ImportNotice.dataFolder(forConfig: configPath)
        self.data = data
        seen = ImportNotice.Step.allCases.map { step in data.flatMap { ImportNotice.read(data: $0, step: step)?.serial } ?? 0 }
    }

    /// The outcomes not shown yet, in step order (a SIGHUP may come after several steps).
    func takeNew() -> [ImportNotice] {
        guard let data else { return [] }
        var news: [ImportNotice] = []
        for step in ImportNotice.Step.allCases {
            guard let notice = ImportNotice.read(data: data, step: step), notice.serial != seen[step.rawValue] else { continue }
            seen[step.rawValue] = notice.serial
            news.append(notice)
        }
        return news
    }

    /// The rescan just started belongs to an import whose text is on screen.
    func holdRescanNotice() { rescanHeld = true }

    /// What to show of a finished rescan: nil (held, once) after an import's new generation.
    func rescanNotice(_ text: String) -> String? {
        guard rescanHeld else { return text }
        rescanHeld = false
        return nil
    }
}
