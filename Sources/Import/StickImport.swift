import CKernel
import ImageCodec
import KernelIO
import Settings

/// Taking a USB stick's config and backdrops into a new generation of the data folder.
///
/// The stick (a contract, also in the README):
/// - A folder `backdrop/` at the root of the stick (FAT32, exFAT or ext4) holds `backdrop.conf`
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
/// unchanged and whole, so only 0 asks the running booth to reload.
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
        }
        return report
    }

    private static func importStick(_ options: Options, into report: inout ImportReport) throws(ImportAbort) -> ImportOutcome {
        let limits = options.limits
        let stickRoot = try ImportAbort.attempt("cannot open the stick at \(options.stick)", missingIsInput: true) { () throws(SystemError) in try DirectoryDescriptor.open(options.stick) }
        let folderKind: FileStatus.Kind?
        do throws(SystemError) { folderKind = try StickFile.kind(of: stickFolder, in: stickRoot) } catch {
            throw ImportAbort(error, doing: "cannot read the stick")
        }
        guard let folderKind else {
            report.note("no \(stickFolder)/ folder at the root of the stick: nothing to take")
            return .nothingUsable
        }
        guard folderKind == .directory else {
            report.skipped("\(stickFolder): \(folderKind.description), not a folder")
            return .nothingUsable
        }
        let stick = try ImportAbort.attempt("cannot open \(stickFolder)/ on the stick") { () throws(SystemError) in try stickRoot.openDirectory(stickFolder) }

        let data = try ImportAbort.attempt("cannot open the data folder \(options.data)") { () throws(SystemError) in try DataFolder.open(options.data) }
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
        let backdrops = try BackdropStep.run(stick: stick, current: current, staged: staged, limits: limits,
                                             into: &report)

        guard config.tookFromStick || backdrops.tookFromStick else {
            report.note("nothing on the stick could be used; the box keeps what it has")
            return .nothingUsable
        }
        if let currentName, !config.changed, !backdrops.changed {
            report.note("the stick holds what the box already runs (generation \(currentName)); nothing changed")
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
        report.note("generation \(name) is current: \(backdrops.count) backdrop\(backdrops.count == 1 ? "" : "s"), "
            + (config.tookFromStick ? "new config" : "config kept"))
        return .newGeneration(name)
    }
}

/// A failure that stops the import before anything became current.
struct ImportAbort: Error {
    /// Runs `body`, turning its failure into an abort that says what was being done.
    static func attempt<T: ~Copyable>(_ what: String, missingIsInput: Bool = false,
                                      _ body: () throws(SystemError) -> T) throws(ImportAbort) -> T {
        do throws(SystemError) { return try body() } catch {
            throw ImportAbort(error, doing: what, missingIsInput: missingIsInput)
        }
    }

    let message: String
    let outcome: ImportOutcome

    init(_ error: SystemError, doing what: String, missingIsInput: Bool = false) {
        message = what + ": " + error.message
        let missing = error.errno == .noSuchFile || error.errno == Errno(Int32(BK_ENOTDIR))
        outcome = missingIsInput && missing ? .nothingUsable : .failed(message)
    }

    init(message: String) {
        self.message = message
        outcome = .failed(message)
    }
}
