import KernelIO

/// An import's outcome for the booth's screen. `backdrop import` runs in a process of its own (the
/// stick's oneshot unit), so it leaves its outcome in the data folder for the running booth. A
/// contract between the two, also in the README ("The USB stick"):
///
///     DIR/import-outcome      backdrop-import-outcome 1    format and version
///                             serial 17                    one more than the file it replaces
///                             status 0                     the import's exit status: 0, 1 or 2
///                             text 12 BACKDROPS IN, 2 SKIPPED
///
/// - Written by `backdrop import` after every import whatever its outcome (0, 1 and 2), before it
///   exits, through `DurableFile` (temporary, fsync, rename, fsync the folder): a reader sees the
///   old file or the new one whole. `text` is printable ASCII, at most `textBytes` long: what the
///   message layer draws as it is.
/// - The unit then sends SIGHUP to the booth, on every exit status. On SIGHUP the booth reads this
///   file; a serial it has not seen is news, shown for some seconds (a failure, status 1, for as
///   long as the booth shows failures). Only status 0 switched `current`, so only then does the
///   booth reload config and backdrops, and the import's text is what it shows (not the rescan's
///   count). A SIGHUP without a new serial (a rollback, a person) reloads as before.
/// - The booth takes the serial present when it starts as seen: an outcome from before is not news.
/// - The booth finds DIR from its config path, `DIR/current/backdrop.conf` (`dataFolder(forConfig:)`).
public struct ImportNotice: Equatable, Sendable {
    public static let fileName = "import-outcome"
    static let header = "backdrop-import-outcome 1"
    /// The message slot's capacity: the text fits on screen without being cut.
    public static let textBytes = 80

    public let serial: Int
    public let status: Int32
    public let text: String

    public init(serial: Int, status: Int32, text: String) {
        self.serial = serial
        self.status = status
        self.text = Self.screenSafe(text)
    }

    /// True when the import failed at run time (exit 1): shown as a failure.
    public var failed: Bool { status == 1 }

    /// The data folder whose `current` holds `configPath`, or nil when the config is elsewhere
    /// (a development run: no import tells that booth anything).
    public static func dataFolder(forConfig configPath: String) -> String? {
        let suffix = "/current/" + GenerationLayout.config
        guard configPath.hasSuffix(suffix) else { return nil }
        let data = String(configPath.dropLast(suffix.count))
        return data.isEmpty ? "/" : data
    }

    /// The notice in DIR, or nil when there is none or it is not in this format.
    public static func read(data: String) -> ImportNotice? {
        let bytes: [UInt8]
        do throws(SystemError) { bytes = try WholeFile.bytes(data + "/" + fileName, limit: 4096) } catch { return nil }
        return parse(String(decoding: bytes, as: UTF8.self))
    }

    static func parse(_ text: String) -> ImportNotice? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.count >= 4, lines[0] == header,
              lines[1].hasPrefix("serial "), let serial = Int(lines[1].dropFirst(7)),
              lines[2].hasPrefix("status "), let status = Int32(lines[2].dropFirst(7)), (0...2).contains(status),
              lines[3].hasPrefix("text ") else { return nil }
        return ImportNotice(serial: serial, status: status, text: String(lines[3].dropFirst(5)))
    }

    var fileText: String {
        Self.header + "\nserial \(serial)\nstatus \(status)\ntext \(text)\n"
    }

    /// Writes the notice for `outcome` into DIR, its serial one past the one there. DIR must exist
    /// (a data folder the import could not even open gets no notice; the unit's log has the reason).
    public static func write(_ text: String, status: Int32, data: String) throws(SystemError) -> ImportNotice {
        let previous = read(data: data)?.serial ?? 0
        let notice = ImportNotice(serial: previous &+ 1, status: status, text: text)
        let folder = try DirectoryDescriptor.open(data)
        try DurableFile.write(Array(notice.fileText.utf8), as: fileName, in: folder)
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
