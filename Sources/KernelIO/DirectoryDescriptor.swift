import CKernel

/// The single owner of an open folder (O_DIRECTORY); closes it in `deinit`. Everything below it is
/// reached by name relative to it (the *at calls), one component at a time and never through a
/// symlink, so a tree read through it cannot lead outside itself: what the import needs for an
/// untrusted stick, and what a durable write needs to fsync the folder it renamed into.
///
/// Names given to the methods are single components (no '/'); callers check that. Nothing here
/// logs; each failure is a `SystemError` naming the operation and the name.
public struct DirectoryDescriptor: ~Copyable {
    private let raw: Int32
    /// For messages: the path this folder was opened by (not used to reach it again).
    public let path: String

    private init(raw: Int32, path: String) {
        self.raw = raw
        self.path = path
    }

    /// Opens a folder by path. The last component must not be a symlink; earlier ones are resolved
    /// by the kernel as usual (the caller's own paths, such as the data folder, are trusted).
    public static func open(_ path: String) throws(SystemError) -> DirectoryDescriptor {
        let fd = bk_open_directory_at(bk_at_cwd(), path)
        guard fd >= 0 else { throw SystemError("open folder \(path)") }
        return DirectoryDescriptor(raw: fd, path: path)
    }

    /// Opens the folder `name` inside this one; fails with ELOOP on a symlink, ENOTDIR on a file.
    public func openDirectory(_ name: String) throws(SystemError) -> DirectoryDescriptor {
        let fd = bk_open_directory_at(raw, name)
        guard fd >= 0 else { throw SystemError("open folder \(child(name))") }
        return DirectoryDescriptor(raw: fd, path: child(name))
    }

    /// Opens `name` for reading without following a symlink and without blocking on a fifo.
    /// Check the kind of the result with `FileDescriptor.status()` before reading.
    public func openForReading(_ name: String) throws(SystemError) -> FileDescriptor {
        let fd = bk_open_read_at(raw, name)
        guard fd >= 0 else { throw SystemError("open \(child(name))") }
        return FileDescriptor(adopting: fd)
    }

    /// Creates (or truncates) `name` for writing; a symlink in its place fails with ELOOP.
    public func create(_ name: String) throws(SystemError) -> FileDescriptor {
        let fd = bk_create_at(raw, name)
        guard fd >= 0 else { throw SystemError("create \(child(name))") }
        return FileDescriptor(adopting: fd)
    }

    /// What `name` is, without following a symlink. Throws ENOENT when it does not exist.
    public func status(of name: String) throws(SystemError) -> FileStatus {
        var kind: Int32 = 0
        var size: Int64 = 0
        var allocated: Int64 = 0
        guard bk_stat_at_nofollow(raw, name, &kind, &size, &allocated) == 0 else { throw SystemError("stat \(child(name))") }
        return FileStatus(kind: FileStatus.Kind(kind), size: size, allocated: allocated)
    }

    /// The status of `name`, or nil when it does not exist (any other failure throws).
    public func statusIfPresent(_ name: String) throws(SystemError) -> FileStatus? {
        do throws(SystemError) {
            return try status(of: name)
        } catch {
            if error.errno == .noSuchFile { return nil }
            throw error
        }
    }

    public func makeDirectory(_ name: String, mode: UInt32 = 0o755) throws(SystemError) {
        guard bk_mkdir_at(raw, name, mode) == 0 else { throw SystemError("create folder \(child(name))") }
    }

    /// rename(2) within this folder: atomic, replaces `to` (a file, a symlink or an empty folder).
    public func rename(_ from: String, to: String) throws(SystemError) {
        guard bk_rename_at(raw, from, raw, to) == 0 else { throw SystemError("rename \(child(from)) to \(to)") }
    }

    public func removeFile(_ name: String) throws(SystemError) {
        guard bk_unlink_at(raw, name, 0) == 0 else { throw SystemError("remove \(child(name))") }
    }

    /// Removes `name` and everything below it, never following a symlink (a symlink is removed,
    /// not what it points at).
    public func removeTree(_ name: String) throws(SystemError) {
        let status = try self.status(of: name)
        if status.kind == .directory {
            let inner = try openDirectory(name)
            for entry in try inner.entries().names { try inner.removeTree(entry) }
            guard bk_unlink_at(raw, name, 1) == 0 else { throw SystemError("remove folder \(child(name))") }
        } else {
            try removeFile(name)
        }
    }

    /// A hard link named `name` here to the file `source` in `folder` (same filesystem): the file
    /// gets a second name without copying a byte. Durable once this folder is fsynced.
    public func link(_ name: String, to source: String, in folder: borrowing DirectoryDescriptor) throws(SystemError) {
        let result = folder.withRawValue { from in bk_link_at(from, source, raw, name) }
        guard result == 0 else { throw SystemError("link \(child(name)) to \(folder.path)/\(source)") }
    }

    public func makeSymlink(_ name: String, pointingTo target: String) throws(SystemError) {
        guard bk_symlink_at(target, raw, name) == 0 else { throw SystemError("symlink \(child(name))") }
    }

    /// The target of the symlink `name`, or nil when there is none (any other failure throws).
    public func symlinkTarget(_ name: String) throws(SystemError) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = buffer.withUnsafeMutableBufferPointer { bk_read_link_at(raw, name, $0.baseAddress, $0.count) }
        if length < 0 {
            if Errno.current == .noSuchFile { return nil }
            throw SystemError("read link \(child(name))")
        }
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// fsync on the folder: makes its entries (creations, renames, removals) durable.
    public func sync() throws(SystemError) {
        guard bk_fsync(raw) == 0 else { throw SystemError("fsync folder \(path)") }
    }

    /// The entries of this folder (no . and ..), unsorted; see `DirectoryEntries`.
    public func entries(capacityBytes: Int = 1 << 20) throws(SystemError) -> DirectoryEntries {
        // Left uninitialised: only the `used` bytes the listing wrote are read, and zeroing the
        // whole capacity (1 MiB by default) cost more than the readdir of a small folder.
        var used = 0
        var count: Int32 = 0
        let storage = [UInt8](unsafeUninitializedCapacity: capacityBytes) { bytes, initialized in
            count = bytes.withMemoryRebound(to: CChar.self) { bk_list_directory_fd(raw, $0.baseAddress, capacityBytes, &used) }
            initialized = count < 0 ? 0 : used
        }
        if count < 0 { throw SystemError("list \(path)") }
        var listing = DirectoryEntries(total: Int(count))
        var start = 0
        for index in 0..<used where storage[index] == 0 {
            listing.add(storage[start..<index])
            start = index + 1
        }
        return listing
    }

    public func withRawValue<R, E: Error>(_ body: (Int32) throws(E) -> R) throws(E) -> R {
        try body(raw)
    }

    private func child(_ name: String) -> String { path + "/" + name }

    deinit { _ = bk_close(raw) }
}
