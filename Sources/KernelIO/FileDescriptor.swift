import CKernel

/// The single owner of an open file descriptor; closes it in `deinit`.
/// The raw number is lent only for the duration of a closure so no copy outlives the owner.
public struct FileDescriptor: ~Copyable {
    private let raw: Int32

    /// Takes ownership of `raw`, which must be an open descriptor nobody else will close.
    public init(adopting raw: Int32) { self.raw = raw }

    public static func open(_ path: String, flags: Int32 = 0, mode: UInt32 = 0o644) throws(SystemError) -> FileDescriptor {
        let fd = bk_open(path, flags, mode)
        guard fd >= 0 else { throw SystemError("open \(path)") }
        return FileDescriptor(adopting: fd)
    }

    public static func openForReading(_ path: String) throws(SystemError) -> FileDescriptor {
        let fd = bk_open_read(path)
        guard fd >= 0 else { throw SystemError("open \(path)") }
        return FileDescriptor(adopting: fd)
    }

    public static func createTruncating(_ path: String) throws(SystemError) -> FileDescriptor {
        let fd = bk_open_write_truncate(path)
        guard fd >= 0 else { throw SystemError("create \(path)") }
        return FileDescriptor(adopting: fd)
    }

    public func withRawValue<R, E: Error>(_ body: (Int32) throws(E) -> R) throws(E) -> R {
        try body(raw)
    }

    /// Writes every byte, retrying after EINTR and short writes.
    public func writeAll(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            let written = bk_write(raw, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if Errno.current == .interrupted { continue }
                throw SystemError("write")
            }
            offset += written
        }
    }

    /// Reads up to `buffer.count` bytes; 0 means end of file.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        while true {
            let got = bk_read(raw, buffer.baseAddress, buffer.count)
            if got >= 0 { return got }
            if Errno.current == .interrupted { continue }
            throw SystemError("read")
        }
    }

    public func sync() throws(SystemError) {
        guard bk_fsync(raw) == 0 else { throw SystemError("fsync") }
    }

    deinit { _ = bk_close(raw) }
}
