import KernelIO

/// A stick step's outcome for the booth's screen. `backdrop import`, `backdrop export-photos` and
/// `backdrop stick-released` run in processes of their own (the stick's oneshot unit), so each
/// leaves its outcome in the data folder for the running booth. A contract between them, also in
/// the README ("The USB stick"):
///
///     DIR/import-outcome      backdrop-import-outcome 1    format and version
///                             serial 17                    one more than the file it replaces
///                             status 0                     the step's exit status: 0, 1 or 2
///                             text 12 BACKDROPS IN, 2 SKIPPED
///
/// - One file per step (`Step`), each with one writer, so a quick later step never overwrites an
///   earlier one before the booth has read it: DIR/import-outcome by `backdrop import` after
///   every import whatever its outcome (0, 1 and 2); DIR/export-outcome by `backdrop
///   export-photos` when the stick has a `backdrop/photos/` folder; DIR/unmount-outcome by
///   `backdrop stick-released` once the unit has unmounted a stick that is still plugged in.
///   Each through `DurableFile` (temporary, fsync, rename, fsync the folder): a reader sees the
///   old file or the new one whole. `text` is printable ASCII, at most `textBytes` long: what the
///   message layer draws as it is.
/// - The unit sends SIGHUP to the booth after each step, on every exit status. On SIGHUP the
///   booth reads the three files; a serial it has not seen is news, shown in step order, each for
///   some seconds (a failure, status 1, for as long as the booth shows failures; a later one
///   waits until the earlier has been readable: `BoothMachine`). Only an import's status 0
///   switched `current` (`switchedCurrent`), so only then does the booth reload config and
///   backdrops, and the import's text is what it shows (not the rescan's count). A SIGHUP
///   without any new serial (a rollback, a person) reloads as before.
/// - The booth takes the serials present when it starts as seen: an outcome from before is not news.
/// - The booth finds DIR from its config path, `DIR/current/backdrop.conf` (`dataFolder(forConfig:)`).
public struct ImportNotice: Equatable, Sendable {
    /// Which step of a stick's visit left the notice, in the order the unit runs them.
    public enum Step: Int, CaseIterable, Sendable {
        /// Config and backdrops into a new generation (`StickImport`).
        case importing
        /// Photos onto the stick (`PhotoExport`).
        case exporting
        /// The stick unmounted while still plugged in: it can be pulled.
        case unmounted

        public var fileName: String {
            switch self {
            case .importing: return "import-outcome"
            case .exporting: return "export-outcome"
            case .unmounted: return "unmount-outcome"
            }
        }
    }

    /// What `backdrop stick-released` leaves: the stick is unmounted and still there.
    public static let removableText = "YOU CAN REMOVE THE STICK"
    static let header = "backdrop-import-outcome 1"
    /// The message slot's capacity: the text fits on screen without being cut.
    public static let textBytes = 80

    public let serial: Int
    public let status: Int32
    public let text: String
    public let step: Step

    public init(serial: Int, status: Int32, text: String, step: Step = .importing) {
        self.serial = serial
        self.status = status
        self.text = Self.screenSafe(text)
        self.step = step
    }

    /// True when the step failed at run time (exit 1): shown as a failure.
    public var failed: Bool { status == 1 }

    /// True when this outcome made a new generation current: the booth reloads.
    public var switchedCurrent: Bool { step == .importing && status == 0 }

    /// The data folder whose `current` holds `configPath`, or nil when the config is elsewhere
    /// (a development run: no import tells that booth anything).
    public static func dataFolder(forConfig configPath: String) -> String? {
        let suffix = "/current/" + GenerationLayout.config
        guard configPath.hasSuffix(suffix) else { return nil }
        let data = String(configPath.dropLast(suffix.count))
        return data.isEmpty ? "/" : data
    }

    /// The step's notice in DIR, or nil when there is none or it is not in this format.
    public static func read(data: String, step: Step = .importing) -> ImportNotice? {
        let bytes: [UInt8]
        do throws(SystemError) { bytes = try WholeFile.bytes(data + "/" + step.fileName, limit: 4096) } catch { return nil }
        return parse(String(decoding: bytes, as: UTF8.self), step: step)
    }

    static func parse(_ text: String, step: Step) -> ImportNotice? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.count >= 4, lines[0] == header,
              lines[1].hasPrefix("serial "), let serial = Int(lines[1].dropFirst(7)),
              lines[2].hasPrefix("status "), let status = Int32(lines[2].dropFirst(7)), (0...2).contains(status),
              lines[3].hasPrefix("text ") else { return nil }
        return ImportNotice(serial: serial, status: status, text: String(lines[3].dropFirst(5)), step: step)
    }

    var fileText: String {
        Self.header + "\nserial \(serial)\nstatus \(status)\ntext \(text)\n"
    }

    /// Writes the step's notice into DIR, its serial one past the one there. DIR must exist
    /// (a data folder the step could not even open gets no notice; the unit's log has the reason).
    public static func write(_ text: String, status: Int32, data: String, step: Step = .importing) throws(SystemError) -> ImportNotice {
        let previous = read(data: data, step: step)?.serial ?? 0
        let notice = ImportNotice(serial: previous &+ 1, status: status, text: text, step: step)
        let folder = try DirectoryDescriptor.open(data)
        try DurableFile.write(Array(notice.fileText.utf8), as: step.fileName, in: folder)
        return notice
    }

    /// Upper case printable ASCII (what the bitmap font draws), cut to `textBytes`.
    static func screenSafe(_ text: String) -> String {
        var bytes: [UInt8] = []
        for byte in text.utf8 {
            if bytes.count == textBytes { break }
            if byte >= 0x61 && byte <= 0x7A { bytes.append(byte - 0x20) } else if byte >= 0x20 && byte <= 0x7E { bytes.append(byte) } else { bytes.append(UInt8(ascii: "?")) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
