import CKernel
import ImageCodec
import KernelIO
import Settings

/// Taking a USB stick's config and backdrops into a new generation of the data folder.
///
/// The stick (a contract, also in the README):
/// - A folder `backdrop/` at the root of the stick (FAT32 or exFAT: the unit mounts no other type) holds `backdrop.conf`
///   (optional) and `backgrounds/` (optional, PNG and JPEG). If `backdrop/photos/` exists, the
///   photos taken since the last export are copied there (`PhotoExport`).
/// - The stick's `backgrounds/` replaces the box's set: what is on the stick is what the box shows.
///   A stick without it keeps the current set; without `backdrop.conf`, the current config.
/// - Each valid part is taken, each invalid part is named with its reason and what it would have
///   replaced stays: a refused config keeps the current one while good backdrops still come in; a
///   `backgrounds/` with no usable image keeps the current set. A config is refused whole (never
///   partly applied) for any problem `backdrop check-config` reports, and when it sets a path key.
/// - Hostile content: no symlink is followed (file or folder), no fifo, device node or socket is
///   opened, nothing on the stick is executed or sourced; names must be UTF-8 without control
///   characters, slashes, a leading '-' or '.', and at most `ImportLimits.nameBytes` long (a
///   name is taken unchanged or skipped, never rewritten); nothing is written outside the data
///   folder (and the stick's `backdrop/photos/`).
/// - Bounds (`ImportLimits`): backdrops taken, entries looked at, bytes per file (a larger file is
///   never read), bytes in total, pixels per side and in all, name length. At a bound the line says
///   which limit was hit and the import goes on with what fits.
///
/// The outcome is the command's exit status: 0 a new generation is current, 2 nothing on the
/// stick was usable or it holds exactly the current generation (the same stick again: nothing
/// written), 1 a runtime failure (full disk, I/O error, stick gone). On 2 and 1 `current` is
/// unchanged and whole, so only on 0 does the running booth reload. Every outcome, in a few words
/// (`ImportReport.screenText`), is left for the booth's screen in DIR/import-outcome
/// (`ImportNotice`, its contract there).
///
/// Blocking file I/O and full image decodes: run it off the frame path (the service runs it on
/// its own worker, or the oneshot unit runs `backdrop import`). Reads the stick through
/// `DirectoryDescriptor` only; writes only through `StagedGeneration` and `DataFolder`.
public enum StickImport {
    public struct Options: Sendable {
        /// The root of the mounted stick.
        public var stick: String
        /// The data folder (`DataFolder`).
        public var data: String = DataFolder.defaultPath
        /// The box's own config, used as the config of the very first generation when the stick
        /// brings none (nil or unusable: an empty file, so every default).
        public var baseConfig: String? = "/etc/backdrop/backdrop.conf"
        public var limits = ImportLimits.standard
        /// Called with each stick file's label once it has been read (the config, each backdrop), on
        /// the thread running `run`: `backdrop import` counts them on its progress line, and a test
        /// can take the stick away in the middle of an import.
        public var afterRead: (@Sendable (String) -> Void)? = nil
        /// Asked between files and before the switch: the name of a stop that came ("SIGTERM",
        /// on the box the import unit stopped because its stick went away), or nil to go on. A
        /// stop before the switch abandons the new generation (exit 1, current unchanged); once
        /// the sealed generation is being switched in, the import finishes (a few calls). Nil:
        /// never stops (the command passes `StopRequest.pending`).
        public var stopRequested: (@Sendable () -> String?)? = nil
        /// Another import holding the data folder (`ImportLock`) is waited for: this many tries,
        /// `lockIntervalNS` apart (by default 14 minutes, inside the unit's 15-minute start
        /// timeout), each after asking `stopRequested`.
        public var lockAttempts: Int = 4200
        public var lockIntervalNS: UInt64 = 200_000_000

        public init(stick: String) { self.stick = stick }
    }

    static let stickFolder = "backdrop"
    static let stickConfig = "backdrop.conf"
    static let stickBackgrounds = "backgrounds"

    public static func run(_ options: Options) -> ImportReport {
        var report = ImportReport()
        do throws(ImportAbort) {
            report.outcome = try importStick(options, into: &report)
        } catch {
            report.note(error.message + "; nothing was changed")
            report.outcome = error.outcome
            report.screenText = error.screen
        }
        return report
    }

    /// "12 BACKDROPS IN, NEW CONFIG, 2 SKIPPED": what a new generation brought, for the screen.
    static func newGenerationText(backdrops: BackdropStep.Result, config: ConfigStep.Result,
                                  report: ImportReport) -> String {
        var parts: [String] = []
        if backdrops.tookFromStick {
            parts.append("\(backdrops.count) BACKDROP\(backdrops.count == 1 ? "" : "S") IN")
        } else {
            parts.append("BACKDROPS KEPT")
        }
        if config.tookFromStick { parts.append("NEW CONFIG") } else if report.configRefused { parts.append("CONFIG REFUSED") }
        if report.skippedItems > 0 { parts.append("\(report.skippedItems) SKIPPED") }
        return parts.joined(separator: ", ")
    }

    /// "STICK: NOTHING USABLE, 3 SKIPPED - OLD SET KEPT".
    static func nothingUsableText(_ report: ImportReport, why: String = "NOTHING USABLE") -> String {
        "STICK: " + why + (report.skippedItems > 0 ? ", \(report.skippedItems) SKIPPED" : "") + " - OLD SET KEPT"
    }

    private static func importStick(_ options: Options, into report: inout ImportReport) throws(ImportAbort) -> ImportOutcome {
        let stickRoot = try ImportAbort.attempt("cannot open the stick at \(options.stick)", on: .stick, missingIsInput: true) { () throws(SystemError) in try DirectoryDescriptor.open(options.stick) }
        let folderKind: FileStatus.Kind?
        do throws(SystemError) { folderKind = try StickFile.kind(of: stickFolder, in: stickRoot) } catch {
            throw ImportAbort(error, doing: "cannot read the stick", on: .stick)
        }
        guard report.isFolder(folderKind, label: stickFolder, missing: "no \(stickFolder)/ folder at the root of the stick: nothing to take") else {
            report.screenText = folderKind == nil ? "STICK: NO BACKDROP FOLDER - NOTHING CHANGED"
                : "STICK: BACKDROP IS NOT A FOLDER - NOTHING CHANGED"
            return .nothingUsable
        }
        let stick = try ImportAbort.attempt("cannot open \(stickFolder)/ on the stick", on: .stick) { () throws(SystemError) in try stickRoot.openDirectory(stickFolder) }

        let data = try ImportAbort.attempt("cannot open the data folder \(options.data)") { () throws(SystemError) in try DataFolder.open(options.data) }
        // One import at a time (ImportLock): the lock is held until this import has returned.
        let taken = try ImportAbort.attempt("cannot lock the data folder \(options.data)") { () throws(SystemError) in
            try ImportLock.take(in: data, attempts: options.lockAttempts, intervalNS: options.lockIntervalNS,
                                stopRequested: options.stopRequested)
        }
        guard let lock = consume taken else {
            try ImportAbort.checkStop(options.stopRequested)
            throw ImportAbort(message: "another import kept the data folder \(options.data) busy (\(ImportLock.name)) for as long as this one waits",
                              screen: "BUSY WITH ANOTHER IMPORT")
        }
        do throws(ImportAbort) {
            let outcome = try importLocked(options, data: data, stick: stick, stickRoot: stickRoot, into: &report)
            lock.release()
            return outcome
        } catch {
            lock.release()
            throw error
        }
    }

    private static func importLocked(_ options: Options, data: borrowing DataFolder, stick: borrowing DirectoryDescriptor,
                                     stickRoot: borrowing DirectoryDescriptor,
                                     into report: inout ImportReport) throws(ImportAbort) -> ImportOutcome {
        let limits = options.limits
        let currentName: String?
        do throws(SystemError) {
            // Leftovers of an interrupted import go first, so their space is free again.
            try data.prune()
            currentName = try data.current()
        } catch {
            throw ImportAbort(error, doing: "cannot read the data folder \(options.data)")
        }
        let current = try ImportAbort.attempt("cannot read the current generation") { () throws(SystemError) in try CurrentContent(currentName, in: data, configLimit: limits.configBytes) }

        let staged = try ImportAbort.attempt("cannot start a new generation in \(options.data)") { () throws(SystemError) in try StagedGeneration(in: data) }
        let config = try ConfigStep.run(stick: stick, current: current, staged: staged, options: options,
                                        into: &report)
        try ImportAbort.checkStop(options.stopRequested)
        let backdrops = try BackdropStep.run(stick: stick, current: current, staged: staged, limits: limits,
                                             afterRead: options.afterRead, stopRequested: options.stopRequested,
                                             into: &report)

        try StickPresence.check(root: stickRoot, stick: stick, backgroundsWasFolder: backdrops.sawFolder)
        // The last point to abandon: after it the generation is sealed and switched in whole.
        try ImportAbort.checkStop(options.stopRequested)

        guard config.tookFromStick || backdrops.tookFromStick else {
            report.note("nothing on the stick could be used; the box keeps what it has")
            report.screenText = nothingUsableText(report)
            return .nothingUsable
        }
        if let currentName, !config.changed, !backdrops.changed {
            report.note("the stick holds what the box already runs (generation \(currentName)); nothing changed")
            report.screenText = "STICK: NOTHING NEW"
            return .unchanged(currentName)
        }
        let name: String
        do throws(SystemError) {
            name = try staged.seal(in: data)
            try data.makeCurrent(name)
        } catch {
            throw ImportAbort(error, doing: "cannot finish the new generation")
        }
        do throws(SystemError) { try data.prune() } catch {
            report.note("could not remove old generations (\(error.message)); they are removed next time")
        }
        report.screenText = newGenerationText(backdrops: backdrops, config: config, report: report)
        report.note("generation \(name) is current: \(backdrops.count) backdrop\(backdrops.count == 1 ? "" : "s"), "
            + (config.tookFromStick ? "new config" : "config kept"))
        return .newGeneration(name)
    }
}

/// A failure that stops the import before anything became current.
struct ImportAbort: Error {
    /// Which side failed, for the screen's few words.
    enum Side { case stick, data }

    /// Runs `body`, turning its failure into an abort that says what was being done.
    static func attempt<T: ~Copyable>(_ what: String, on side: Side = .data, missingIsInput: Bool = false,
                                      _ body: () throws(SystemError) -> T) throws(ImportAbort) -> T {
        try attempt(body) { error in ImportAbort(error, doing: what, on: side, missingIsInput: missingIsInput) }
    }

    /// Runs `body`, turning its failure into the abort `abort` makes of it (the photo export's
    /// screen text counts what was copied, which the import's does not).
    static func attempt<T: ~Copyable>(_ body: () throws(SystemError) -> T,
                                      abort: (SystemError) -> ImportAbort) throws(ImportAbort) -> T {
        do throws(SystemError) { return try body() } catch { throw abort(error) }
    }

    let message: String
    let outcome: ImportOutcome
    /// For the screen (`ImportNotice`): "IMPORT FAILED: DISK FULL - OLD SET KEPT".
    let screen: String

    init(_ error: SystemError, doing what: String, on side: Side = .data, missingIsInput: Bool = false) {
        message = what + ": " + error.message
        let code = error.errno.code
        let missing = code == Int32(BK_ENOENT) || code == Int32(BK_ENOTDIR)
        if missingIsInput && missing {
            outcome = .nothingUsable
            screen = "STICK: NOT READABLE - NOTHING CHANGED"
            return
        }
        outcome = .failed(message)
        if code == Int32(BK_ENOSPC) || code == Int32(BK_EDQUOT) {
            screen = Self.screen("DISK FULL")
        } else if side == .stick && (missing || code == Int32(BK_EIO) || code == Int32(BK_ENODEV) || code == Int32(BK_ENXIO)) {
            screen = Self.screen("STICK REMOVED OR FAILING")
        } else {
            screen = Self.screen(side == .stick ? "CANNOT READ THE STICK" : "DISK ERROR")
        }
    }

    init(message: String, screen reason: String) {
        self.init(message: message, screenText: Self.screen(reason))
    }

    init(message: String, screenText: String) {
        self.message = message
        outcome = .failed(message)
        screen = screenText
    }

    static func screen(_ reason: String) -> String { "IMPORT FAILED: " + reason + " - OLD SET KEPT" }

    /// A stop (`Options.stopRequested`) before the switch: the staged generation is dropped.
    static func checkStop(_ stopRequested: (@Sendable () -> String?)?) throws(ImportAbort) {
        guard let signal = stopRequested?() else { return }
        throw ImportAbort(message: "stopped by \(signal) before the new generation was complete (on the box: the stick was unplugged or the import unit was stopped)",
                          screenText: "IMPORT STOPPED - OLD SET KEPT")
    }
}
