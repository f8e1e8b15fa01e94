import CKernel
import KernelIO

/// One import at a time on a data folder: the boot partition's import and a stick's (and, for its
/// "BUSY", the rollback gesture) take `DIR/import.lock` (flock, exclusive) while they change DIR.
/// Without it two imports could run at once (two sticks, or a stick during the boot import) and
/// one's `prune()` remove the other's staging folder. The kernel drops the lock with the last
/// descriptor, so a crash or a power cut leaves no stale lock behind.
public struct ImportLock: ~Copyable {
    public static let name = "import.lock"
    private let file: FileDescriptor

    private init(file: consuming FileDescriptor) { self.file = file }

    /// The lock if it is free now, else nil (another import holds it). Never waits.
    public static func tryTake(in data: borrowing DataFolder) throws(SystemError) -> ImportLock? {
        let file = try data.root.create(name)
        let result = file.withRawValue { bk_flock_try($0, 1) }
        if result < 0 { throw SystemError("lock \(data.path)/\(name)") }
        return result == 0 ? ImportLock(file: file) : nil
    }

    /// Tries `attempts` times, `intervalNS` apart, while `stopRequested` says nothing: nil when
    /// another import kept the lock all that time, or a stop came.
    static func take(in data: borrowing DataFolder, attempts: Int, intervalNS: UInt64,
                     stopRequested: (@Sendable () -> String?)?) throws(SystemError) -> ImportLock? {
        for attempt in 0..<max(attempts, 1) {
            if let lock = try tryTake(in: data) { return lock }
            if stopRequested?() != nil || attempt == attempts - 1 { break }
            MonotonicClock.sleep(nanoseconds: intervalNS)
        }
        return nil
    }

    /// Gives the lock back (closing its descriptor); the end of the value's life does the same.
    public consuming func release() {}
}
