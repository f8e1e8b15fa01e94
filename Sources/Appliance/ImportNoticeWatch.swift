import Import

/// The stick import's outcomes as the booth takes them on SIGHUP (the contract is at
/// `ImportNotice`): a serial not seen yet is news, the one present at start-up is not. While the
/// rescan of an import's new generation runs, its own count ("12 BACKDROPS") is held back so the
/// import's text stays on screen. I/O thread only.
final class ImportNoticeWatch {
    private let data: String?
    private var seen: Int
    private var rescanHeld = false

    init(configPath: String) {
        data = ImportNotice.dataFolder(forConfig: configPath)
        seen = data.flatMap { ImportNotice.read(data: $0)?.serial } ?? 0
    }

    /// The outcome not shown yet, or nil.
    func takeNew() -> ImportNotice? {
        guard let data, let notice = ImportNotice.read(data: data), notice.serial != seen else { return nil }
        seen = notice.serial
        return notice
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
