import Glibc

/// A tmpfs of a given size mounted on a fresh temporary folder, for tests that need a disk that
/// really fills up (ENOSPC from the kernel, not a simulated one). Needs root (CAP_SYS_ADMIN);
/// `init` returns nil otherwise, and tests skip with that reason. Unmounted (lazily, so a test
/// that still holds a descriptor cannot leave it behind) and removed in deinit.
public final class SmallFilesystem {
    public let path: String
    private let holder: TemporaryDirectory

    public static var canMount: Bool { geteuid() == 0 }

    public init?(bytes: Int, label: String) {
        guard Self.canMount else { return nil }
        holder = TemporaryDirectory(label)
        path = holder.path
        guard mount("backdrop-test", path, "tmpfs", 0, "size=\(bytes),mode=0755") == 0 else { return nil }
    }

    deinit { _ = umount2(path, Int32(MNT_DETACH)) }
}
