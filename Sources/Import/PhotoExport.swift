import CKernel
import KernelIO

/// Copies the photos taken since the last export into the stick's `backdrop/photos/`, when that
/// folder exists (it is the owner's way of asking for them). Separate from `StickImport` because
/// it is the one step that writes to the stick: the import unit remounts the stick read-write for
/// this step only, then syncs and unmounts.
///
/// "Since the last export" is a list of the names already exported, kept in the data folder
/// (`DIR/exported-photos`, one name a line) and rewritten durably after each export, so a photo
/// is copied once even across several sticks. Each photo goes onto the stick durably (temporary
/// name, fsync, rename, fsync of the folder): a stick pulled out mid-copy holds whole photos only.
/// A name already on the stick is not overwritten. Blocking I/O: never on the frame path.
public enum PhotoExport {
    public static let recordName = "exported-photos"

    public struct Options: Sendable {
        public var stick: String
        public var data: String = DataFolder.defaultPath
        /// Where the box writes its photos; default DIR/photos (the config's `[photos] directory`
        /// on the box, which a stick cannot change).
        public var photos: String?
        public var limits = ImportLimits.standard

        public init(stick: String) { self.stick = stick }
    }

    public static func run(_ options: Options) -> ImportReport {
        var report = ImportReport()
        do throws(ImportAbort) {
            report.outcome = try export(options, into: &report)
        } catch {
            report.note(error.message)
            report.outcome = error.outcome
        }
        return report
    }

    private static func export(_ options: Options, into report: inout ImportReport) throws(ImportAbort) -> ImportOutcome {
        let label = StickImport.stickFolder + "/photos"
        let stickRoot = try ImportAbort.attempt("cannot open the stick at \(options.stick)", missingIsInput: true) { () throws(SystemError) in
            try DirectoryDescriptor.open(options.stick)
        }
        let kind = try ImportAbort.attempt("cannot read the stick") { () throws(SystemError) -> FileStatus.Kind? in
            guard let folder = try StickFile.kind(of: StickImport.stickFolder, in: stickRoot), folder == .directory else { return nil }
            let backdrop = try stickRoot.openDirectory(StickImport.stickFolder)
            return try StickFile.kind(of: "photos", in: backdrop)
        }
        guard report.isFolder(kind, label: label, missing: "no \(label)/ on the stick: no photos copied",
                              otherwise: "; no photos copied") else { return .nothingUsable }
        let target = try ImportAbort.attempt("cannot open \(label)/ on the stick") { () throws(SystemError) in
            try stickRoot.openDirectory(StickImport.stickFolder).openDirectory("photos")
        }
        let data = try ImportAbort.attempt("cannot open the data folder \(options.data)") { () throws(SystemError) in
            try DirectoryDescriptor.open(options.data)
        }
        let photosPath = options.photos ?? options.data + "/photos"
        guard let source = try ImportAbort.attempt("cannot open the photo folder \(photosPath)", { () throws(SystemError) -> DirectoryDescriptor? in
            guard try DirectoryDescriptor.open(DurablePath.split(photosPath).folder).statusIfPresent(DurablePath.split(photosPath).name) != nil else { return nil }
            return try DirectoryDescriptor.open(photosPath)
        }) else {
            report.note("0 photos copied: the box has taken none yet")
            return .photosCopied(0)
        }
        var exported = try ImportAbort.attempt("cannot read the export record") { () throws(SystemError) in
            try exportedNames(in: data)
        }
        let names = try ImportAbort.attempt("cannot list \(photosPath)") { () throws(SystemError) in
            try source.entries().names.filter { !$0.hasPrefix(".") }.sorted()
        }
        var copied = 0
        for name in names where !exported.contains(name) {
            guard copied < options.limits.photos else {
                report.skipped("photos: the limit of \(options.limits.photos) photos in one export is reached; the rest go next time")
                break
            }
            let shown = StickName.printable(name)
            let present = try ImportAbort.attempt("cannot read \(label)/ on the stick") { () throws(SystemError) in
                try target.statusIfPresent(name)
            }
            if present != nil {
                report.skipped("photo \(shown): \(label)/ already has a file of that name")
                exported.append(name)
                continue
            }
            let bytes: [UInt8]
            do throws(StickFile.Refusal) { bytes = try StickFile.read(name, in: source, limit: options.limits.fileBytes) } catch {
                try StickFailure.skipOrAbort(error, label: "photo " + shown, limits: options.limits, on: .data, into: &report)
                continue
            }
            do throws(SystemError) { try DurableFile.write(bytes, as: name, in: target) } catch {
                report.note("\(copied) photo\(copied == 1 ? "" : "s") copied")
                let readOnly = error.errno.code == Int32(BK_EROFS)
                try? recordExported(exported, in: data)
                throw ImportAbort(message: readOnly ? "the stick is mounted read-only: cannot copy photos"
                                  : "cannot copy photo \(shown) to the stick: \(error.message)",
                                  screenText: readOnly ? "PHOTOS NOT COPIED: THE STICK IS READ-ONLY" : "PHOTOS NOT COPIED: STICK FULL OR FAILING")
            }
            exported.append(name)
            copied += 1
        }
        do throws(SystemError) { try recordExported(exported, in: data) } catch {
            throw ImportAbort(error, doing: "photos copied, but the export record could not be written (they are copied again next time)")
        }
        report.note("\(copied) photo\(copied == 1 ? "" : "s") copied")
        return .photosCopied(copied)
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
