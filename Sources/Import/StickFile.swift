import KernelIO

/// Reading one file of the stick under the hostile-content rules: the name is looked at without
/// following a symlink, only a regular file is opened (never a fifo, device node or socket), the
/// opened descriptor is checked again with fstat (the name could have been swapped in between),
/// and nothing over `limit` bytes is read: the size comes from fstat and reading stops at the
/// limit even if the file grows.
enum StickFile {
    enum Refusal: Error {
        /// The entry is not something the import reads; `reason` says what it is.
        case wrongKind(String)
        case tooLarge(Int64)
        /// More bytes came than fstat said: the file was written to while being read.
        case changedWhileRead
        /// The kernel refused (the stick went away, an I/O error).
        case unreadable(SystemError)
    }

    /// The kind of `name` in `folder`, or nil when it does not exist.
    static func kind(of name: String, in folder: borrowing DirectoryDescriptor) throws(SystemError) -> FileStatus.Kind? {
        try folder.statusIfPresent(name)?.kind
    }

    private static func open(_ name: String, in folder: borrowing DirectoryDescriptor) throws(Refusal) -> FileDescriptor {
        do throws(SystemError) { return try folder.openForReading(name) } catch { throw .unreadable(error) }
    }

    static func read(_ name: String, in folder: borrowing DirectoryDescriptor, limit: Int) throws(Refusal) -> [UInt8] {
        let before: FileStatus
        do throws(SystemError) { before = try folder.status(of: name) } catch { throw .unreadable(error) }
        guard before.kind == .regular else { throw .wrongKind(before.kind.description) }
        guard before.size <= Int64(limit) else { throw .tooLarge(before.size) }
        let file = try open(name, in: folder)
        let opened: FileStatus
        do throws(SystemError) { opened = try file.status() } catch { throw .unreadable(error) }
        guard opened.kind == .regular else { throw .wrongKind(opened.kind.description) }
        guard opened.size <= Int64(limit) else { throw .tooLarge(opened.size) }
        // One byte of room past the limit tells a file that grew since fstat from one that did not.
        var bytes = [UInt8](repeating: 0, count: Int(opened.size) + 1)
        var filled = 0
        var failure: SystemError? = nil
        bytes.withUnsafeMutableBytes { raw in
            while filled < raw.count {
                do throws(SystemError) {
                    let got = try file.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[filled...]))
                    if got == 0 { break }
                    filled += got
                } catch {
                    failure = error
                    break
                }
            }
        }
        if let failure { throw .unreadable(failure) }
        guard filled <= Int(opened.size) else { throw .changedWhileRead }
        bytes.removeLast(bytes.count - filled)
        return bytes
    }
}

extension ImportReport {
    /// Whether a folder the stick may hold is there: `kind` is what the stick has under its name
    /// (nil: nothing). Missing, the note `missing` is said; something else, a skipped line
    /// "LABEL: a file, not a folder" and `otherwise`. The import's `backdrop/` and the photo
    /// export's `backdrop/photos/` are looked up alike.
    mutating func isFolder(_ kind: FileStatus.Kind?, label: String, missing: String, otherwise: String = "") -> Bool {
        guard let kind else {
            note(missing)
            return false
        }
        guard kind == .directory else {
            skipped("\(label): \(kind.description), not a folder" + otherwise)
            return false
        }
        return true
    }
}
