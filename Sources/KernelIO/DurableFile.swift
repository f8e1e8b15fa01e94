import CKernel

/// A file that appears under its final name only once its whole content is on the disk: written
/// to a temporary name in the same folder, fsynced, renamed over the final name, then the folder
/// fsynced so the rename itself survives a power cut. After a crash at any point the final name
/// holds the old content or the new, never a part; a leftover temporary is named `.NAME.partial`
/// and is overwritten by the next write of NAME.
///
/// Use: `let file = try DurableFile(name, in: folder)`, `try file.write(...)` any number of times,
/// `try file.commit(in: folder)`. Dropped without commit (an error on the way), the temporary is
/// removed and the final name is untouched. One owner of the temporary's descriptor, closed when
/// the value ends (commit consumes it). Blocks in write and fsync: never on the frame path.
public struct DurableFile: ~Copyable {
    private let descriptor: FileDescriptor
    private let finalName: String
    private let temporaryName: String
    /// Where the temporary lives, to remove it if never committed (a path: the folder's descriptor
    /// stays with its owner, who passes it to commit).
    private let folderPath: String
    private var committed = false

    /// Creates the temporary `.NAME.partial` in `folder`. `name` is one path component.
    public init(_ name: String, in folder: borrowing DirectoryDescriptor) throws(SystemError) {
        finalName = name
        temporaryName = "." + name + ".partial"
        folderPath = folder.path
        descriptor = try folder.create(temporaryName)
    }

    public func write(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        do throws(SystemError) { try descriptor.writeAll(bytes) } catch {
            throw SystemError("write \(folderPath)/\(finalName)", error.errno)
        }
    }

    public func write(_ bytes: [UInt8]) throws(SystemError) {
        var failure: SystemError? = nil
        bytes.withUnsafeBytes { raw in
            do throws(SystemError) { try write(raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// fsync the data, close, rename over the final name, fsync the folder. `folder` must be the
    /// folder this file was created in.
    /// Consumes the file: the temporary's descriptor is closed when this returns or throws.
    public consuming func commit(in folder: borrowing DirectoryDescriptor) throws(SystemError) {
        do throws(SystemError) { try descriptor.sync() } catch {
            throw SystemError("fsync \(folderPath)/\(finalName)", error.errno)
        }
        try folder.rename(temporaryName, to: finalName)
        committed = true
        try folder.sync()
    }

    deinit {
        // Unlinking before the descriptor closes is fine: the name goes now, the inode with the fd.
        if !committed { _ = bk_unlink("\(folderPath)/\(temporaryName)") }
    }
}

extension DurableFile {
    /// The whole write in one call: `bytes` become folder/name durably (see the type's contract).
    public static func write(_ bytes: [UInt8], as name: String, in folder: borrowing DirectoryDescriptor) throws(SystemError) {
        let file = try DurableFile(name, in: folder)
        try file.write(bytes)
        try file.commit(in: folder)
    }

    /// By path, for callers without an open folder: opens the folder of `path` for the duration.
    public static func write(_ bytes: [UInt8], toPath path: String) throws(SystemError) {
        let (folderPath, name) = DurablePath.split(path)
        let folder = try DirectoryDescriptor.open(folderPath)
        try write(bytes, as: name, in: folder)
    }
}

extension DirectoryDescriptor {
    /// Points the symlink `name` at `target` atomically: a new link under a temporary name, renamed
    /// over `name`, the folder fsynced. Readers see the old target or the new, never no link; used
    /// to switch `current` between generations. A leftover temporary from a crash is replaced.
    public func switchSymlink(_ name: String, to target: String) throws(SystemError) {
        let temporary = "." + name + ".switch"
        if try statusIfPresent(temporary) != nil { try removeFile(temporary) }
        try makeSymlink(temporary, pointingTo: target)
        try rename(temporary, to: name)
        try sync()
    }
}

/// Splits a path into its folder and last component (no Foundation here).
public enum DurablePath {
    public static func split(_ path: String) -> (folder: String, name: String) {
        let bytes = Array(path.utf8)
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return (".", path) }
        let folder = slash == 0 ? "/" : String(decoding: bytes[..<slash], as: UTF8.self)
        return (folder, String(decoding: bytes[(slash + 1)...], as: UTF8.self))
    }
}
