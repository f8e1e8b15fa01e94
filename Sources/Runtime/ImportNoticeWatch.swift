import Import

/// The stick's outcomes as the booth takes them on SIGHUP (the contract is at `ImportNotice`,
/// what is news at `ImportNoticeSeen`). While the rescan of an import's new generation runs, its
/// own count ("12 BACKDROPS") is held back so the import's text stays on screen. I/O thread only.
final class ImportNoticeWatch {
    private var seen: ImportNoticeSeen?
    private var rescanHeld = false
    /// Outcomes shown while the booth could not reload yet (the camera wait), for that reload.
    private var carried: [ImportNotice] = []

    init(configPath: String) {
        seen = ImportNotice.dataFolder(forConfig: configPath).map { ImportNoticeSeen(data: $0) }
    }

    /// The outcomes not shown yet, in step order (a SIGHUP may come after several steps).
    func takeNew() -> [ImportNotice] {
        seen?.takeNew() ?? []
    }

    /// `notices` were shown already, and the reload they ask for is left to the live booth.
    func carry(_ notices: [ImportNotice]) { carried += notices }

    /// What `carry` kept, taken.
    func takeCarried() -> [ImportNotice] {
        defer { carried = [] }
        return carried
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
