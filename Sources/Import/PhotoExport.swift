import CKernel
import KernelIO

/// Copies the photos taken since the last export into the stick's `backdrop/photos/`, when that
/// folder exists (it is the owner's way of asking for them). Separate from `StickImport` because
/// it is the one step that writes to the stick: the import unit remounts the stick read-write for
/// this step only, then syncs and unmounts.
///
/// "Since the last export" is a list of the names already exported, kept in the data folder
/// (`DIR/exported-photos`, one name a line), so a photo is copied once even across several
/// sticks. Each photo goes onto the stick durably (temporary name, fsync, rename, fsync of the
/// folder), and only then is the list rewritten durably with its name: the list never names a
/// photo whose copy is not whole on a stick, and a stick pulled out mid-copy holds whole photos
/// only (a crash between the two leaves a whole photo the list does not name: the same stick
/// next time skips it as already there, another stick gets it). A name already on the stick is
/// not overwritten. Blocking I/O: never on the frame path.
///
/// A stop (`Options.stopRequested`: SIGTERM when the unit is stopped because the stick went away)
/// is answered before each photo and between a photo's write and its fsync, the slow step on a
/// stick: the photo in hand is dropped (its temporary removed), the list already names every photo
/// copied, the export ends with exit 1 saying how many were copied and that the rest go next time.
public enum PhotoExport {
    public static let recordName = "exported-photos"

    public struct Options: Sendable {
        public var stick: String
        public var data: String = DataFolder.defaultPath
        /// Where the box writes its photos; default DIR/photos (the config's `[photos] directory`
        /// on the box, which a stick cannot change).
        public var photos: String?
        public var limits = ImportLimits.standard
        /// Asked before each photo and before a written photo is made durable: the name of a stop
        /// that came ("SIGTERM"), or nil to go on. Nil: never stops (the command passes
        /// `StopRequest.pending`).
        public var stopRequested: (@Sendable () -> String?)? = nil

        public init(stick: String) { self.stick = stick }
    }

    /// The export and its outcome for the screen (`ImportReport.screenText`, `PhotoExportText`).
    /// A stick without a `backdrop/photos/` folder (`.nothingUsable`, exit 2) did not ask for
    /// photos: its text is empty and the command leaves no notice, so the screen keeps the
    /// import's outcome (on the box the unit does not even run the export then).
    public static func run(_ options: Options) -> ImportReport {
        var report = ImportReport()
        do throws(ImportAbort) {
            report.outcome = try export(options, into: &report)
        } catch {
            report.note(error.message)
            report.outcome = error.outcome
            report.screenText = error.outcome == .nothingUsable ? "" : error.screen
        }
        return report
    }

    private static func openStick(_ path: String) throws(ImportAbort) -> DirectoryDescriptor {
        do throws(SystemError) { return try DirectoryDescriptor.open(path) } catch {
            let code = error.errno.code
            // No stick there at all: nothing asked for photos (exit 2), as a missing folder.
            guard code != Int32(BK_ENOENT) && code != Int32(BK_ENOTDIR) else {
                throw ImportAbort(error, doing: "cannot open the stick at \(path)", missingIsInput: true)
            }
            throw ImportAbort(message: "cannot open the stick at \(path): \(error.message)",
                              screenText: PhotoExportText.failed(.of(error, on: .stick), copied: 0, left: 0))
        }
    }

    /// Runs `body`; its failure ends the export, said for the screen by `PhotoExportText.failed`.
    private static func attempt<T: ~Copyable>(_ what: String, on side: ImportAbort.Side, copied: Int = 0, left: Int = 0,
                                              _ body: () throws(SystemError) -> T) throws(ImportAbort) -> T {
        try ImportAbort.attempt(body) { error in
            ImportAbort(message: what + ": " + error.message,
                        screenText: PhotoExportText.failed(.of(error, on: side), copied: copied, left: left))
        }
    }

    private static func export(_ options: Options, into report: inout ImportReport) throws(ImportAbort) -> ImportOutcome {
        let label = StickImport.stickFolder + "/photos"
        let stickRoot = try openStick(options.stick)
        let kind = try attempt("cannot read the stick", on: .stick) { () throws(SystemError) -> FileStatus.Kind? in
            guard let folder = try StickFile.kind(of: StickImport.stickFolder, in: stickRoot), folder == .directory else { return nil }
            let backdrop = try stickRoot.openDirectory(StickImport.stickFolder)
            return try StickFile.kind(of: "photos", in: backdrop)
        }
        guard report.isFolder(kind, label: label, missing: "no \(label)/ on the stick: no photos copied",
                              otherwise: "; no photos copied") else { return .nothingUsable }
        let target = try attempt("cannot open \(label)/ on the stick", on: .stick) { () throws(SystemError) in
            try stickRoot.openDirectory(StickImport.stickFolder).openDirectory("photos")
        }
        let data = try attempt("cannot open the data folder \(options.data)", on: .data) { () throws(SystemError) in
            try DirectoryDescriptor.open(options.data)
        }
        let photosPath = options.photos ?? options.data + "/photos"
        guard let source = try attempt("cannot open the photo folder \(photosPath)", on: .data, { () throws(SystemError) -> DirectoryDescriptor? in
            guard try DirectoryDescriptor.open(DurablePath.split(photosPath).folder).statusIfPresent(DurablePath.split(photosPath).name) != nil else { return nil }
            return try DirectoryDescriptor.open(photosPath)
        }) else {
            report.note("0 photos copied: the box has taken none yet")
            report.screenText = PhotoExportText.nothingNew
            return .photosCopied(0)
        }
        var exported = try attempt("cannot read the export record", on: .data) { () throws(SystemError) in
            try exportedNames(in: data)
        }
        let names = try attempt("cannot list \(photosPath)", on: .data) { () throws(SystemError) in
            try source.entries().names.filter { !$0.hasPrefix(".") }.sorted()
        }
        let waiting = names.filter { !exported.contains($0) }
        var copied = 0
        var more = false
        for (index, name) in waiting.enumerated() {
            let left = waiting.count - index
            guard copied < options.limits.photos else {
                report.skipped("photos: the limit of \(options.limits.photos) photos in one export is reached; the rest go next time", item: false)
                more = true
                break
            }
            if let signal = options.stopRequested?() {
                throw stopped(by: signal, copied: copied, left: left, into: &report)
            }
            let shown = StickName.printable(name)
            let onStick = try attempt("cannot read \(label)/ on the stick", on: .stick, copied: copied, left: left) { () throws(SystemError) in
                try target.statusIfPresent(name)
            }
            if onStick != nil {
                report.skipped("photo \(shown): \(label)/ already has a file of that name")
                exported.append(name)
                try record(exported, in: data, copied: copied, left: left - 1, into: &report)
                continue
            }
            let bytes: [UInt8]
            do throws(StickFile.Refusal) { bytes = try StickFile.read(name, in: source, limit: options.limits.fileBytes) } catch {
                // The box's own disk failing is the box's error, not the stick's (StickFailure's words).
                if case .unreadable(let failure) = error, [Int32(BK_EIO), Int32(BK_ENODEV), Int32(BK_ENXIO)].contains(failure.errno.code) {
                    report.note("\(copied) photo\(copied == 1 ? "" : "s") copied")
                    throw ImportAbort(message: "cannot read photo \(shown) on the box: \(failure.message)",
                                      screenText: PhotoExportText.failed(.boxError, copied: copied, left: left))
                }
                try StickFailure.skipOrAbort(error, label: "photo " + shown, limits: options.limits, on: .data, into: &report)
                continue
            }
            var stop: String? = nil
            do throws(SystemError) {
                let file = try DurableFile(name, in: target)
                try file.write(bytes)
                // The fsync is the slow part on a stick: a stop that came during the write drops
                // this photo (the file's deinit removes the temporary) rather than wait for it.
                stop = options.stopRequested?()
                if stop == nil { try file.commit(in: target) }
            } catch {
                report.note("\(copied) photo\(copied == 1 ? "" : "s") copied")
                let reason = PhotoExportText.Reason.of(error, on: .stick)
                throw ImportAbort(message: reason == .stickReadOnly ? "the stick is mounted read-only: cannot copy photos"
                                  : "cannot copy photo \(shown) to the stick: \(error.message)",
                                  screenText: PhotoExportText.failed(reason, copied: copied, left: left))
            }
            if let stop { throw stopped(by: stop, copied: copied, left: left, into: &report) }
            exported.append(name)
            copied += 1
            try record(exported, in: data, copied: copied, left: left - 1, into: &report)
        }
        report.note("\(copied) photo\(copied == 1 ? "" : "s") copied")
        report.screenText = PhotoExportText.copied(copied, skipped: report.skippedItems, more: more)
        return .photosCopied(copied)
    }

    /// The end of an export a stop came to: every photo copied so far is already in the list.
    /// `left`: the photos not copied yet, the one in hand included.
    private static func stopped(by signal: String, copied: Int, left: Int, into report: inout ImportReport) -> ImportAbort {
        report.note("\(copied) photo\(copied == 1 ? "" : "s") copied")
        return ImportAbort(message: "stopped by \(signal) after \(copied) photo\(copied == 1 ? "" : "s") (on the box: the stick was unplugged or the import unit was stopped); "
                          + "the stick holds whole photos only, the other \(left) \(left == 1 ? "is" : "are") copied next time",
                          screenText: PhotoExportText.stopped(copied: copied, left: left))
    }

    /// The list rewritten with the photo just copied (or found already there).
    private static func record(_ names: [String], in data: borrowing DirectoryDescriptor, copied: Int, left: Int,
                               into report: inout ImportReport) throws(ImportAbort) {
        do throws(SystemError) { try recordExported(names, in: data) } catch {
            report.note("\(copied) photo\(copied == 1 ? "" : "s") copied")
            throw ImportAbort(message: "the export record could not be written (the photo just copied is copied again next time): " + error.message,
                              screenText: PhotoExportText.failed(.of(error, on: .data), copied: copied, left: left))
        }
    }

    private static func exportedNames(in data: borrowing DirectoryDescriptor) throws(SystemError) -> [String] {
        guard try data.statusIfPresent(recordName) != nil else { return [] }
        let text = try WholeFile.text(data.path + "/" + recordName, limit: 16 << 20)
        return text.split(separator: "\n").map { String($0) }
    }

    private static func recordExported(_ names: [String], in data: borrowing DirectoryDescriptor) throws(SystemError) {
        var text = ""
        for name in names where !name.contains("\n") { text += name + "\n" }
        try DurableFile.write(Array(text.utf8), as: recordName, in: data)
    }
}
