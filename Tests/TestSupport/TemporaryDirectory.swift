import CKernel
import Glibc
import Synchronization

/// A fresh directory under /tmp for the test targets that write files, named from a process-wide
/// counter and the monotonic clock so parallel tests never share one; removed (with the files in
/// it) on deinit.
public final class TemporaryDirectory {
    // Atomic: tests run in parallel on several threads (ThreadSanitizer reported the plain var).
    private static let counter = Atomic<Int>(0)
    public let path: String

    public init(_ label: String) {
        let number = Self.counter.add(1, ordering: .relaxed).newValue
        path = "/tmp/backdrop-test-\(label)-\(getpid())-\(number)-\(bk_monotonic_ns())"
        precondition(bk_mkdir(path, 0o755) == 0, "cannot create \(path)")
    }

    public func file(_ name: String) -> String { path + "/" + name }

    public func write(_ name: String, _ bytes: [UInt8]) -> String {
        let target = file(name)
        let fd = bk_open_write_truncate(target)
        precondition(fd >= 0)
        bytes.withUnsafeBytes { raw in _ = bk_write(fd, raw.baseAddress, raw.count) }
        _ = bk_close(fd)
        return target
    }

    /// Writes bytes produced by a C API (not held in an array).
    public func write(_ name: String, raw bytes: UnsafeRawBufferPointer) {
        let fd = bk_open_write_truncate(file(name))
        precondition(fd >= 0)
        _ = bk_write(fd, bytes.baseAddress, bytes.count)
        _ = bk_close(fd)
    }

    deinit { Self.removeTree(path) }

    /// Removes a folder and everything below it.
    public static func removeTree(_ directory: String) {
        guard let handle = opendir(directory) else { return }
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if name == "." || name == ".." { continue }
            let child = directory + "/" + name
            // lstat, not stat: a test may plant a symlink to a real folder (a hostile stick's
            // link to /etc); following it here would empty that folder.
            var info = stat()
            let isFolder = lstat(child, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
            if isFolder { removeTree(child) } else { _ = bk_unlink(child) }
        }
        closedir(handle)
        rmdir(directory)
    }
}
