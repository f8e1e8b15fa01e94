import CKernel

/// A joinable OS thread running one closure, optionally pinned and real-time. Owns the thread:
/// `join()` must be called before the last reference goes (the pipeline does it on shutdown).
public final class WorkerThread {
    public let name: String
    private let body: () -> Void
    private let cpuMask: UInt64
    private let realtimePriority: Int32
    private var handle: UInt64 = 0
    private var started = false
    /// Set by the thread itself when real-time scheduling was refused (EPERM without CAP_SYS_NICE).
    public private(set) var realtimeRefused = false
    public private(set) var pinningRefused = false

    /// - cpuMask: bit n = CPU n; 0 leaves the thread unpinned: on the CPUs the process started
    ///   with, not those of the thread that creates it (which may be pinned already).
    /// - realtimePriority: SCHED_FIFO priority, 0 for normal scheduling.
    public init(name: String, cpuMask: UInt64 = 0, realtimePriority: Int32 = 0, body: @escaping () -> Void) {
        self.name = name
        self.body = body
        self.cpuMask = cpuMask
        self.realtimePriority = realtimePriority
    }

    public func start() throws(SystemError) {
        let context = Unmanaged.passRetained(self).toOpaque()
        let result = bk_thread_start(&handle, { raw in
            let thread = Unmanaged<WorkerThread>.fromOpaque(raw!).takeRetainedValue()
            thread.runOnThisThread()
            return nil
        }, context, cpuMask)
        guard result == 0 else {
            Unmanaged<WorkerThread>.fromOpaque(context).release()
            throw SystemError("start thread \(name)", Errno(result))
        }
        started = true
    }

    public func join() {
        guard started else { return }
        _ = bk_thread_join(handle)
        started = false
    }

    private func runOnThisThread() {
        // Already on its CPUs from birth where the kernel took them (bk_thread_start); pinning
        // again is what says whether it was refused.
        let pinned = cpuMask != 0 ? bk_pin_current_thread(cpuMask) : bk_unpin_current_thread()
        if pinned != 0 { pinningRefused = true }
        if realtimePriority > 0 && bk_set_realtime(realtimePriority) != 0 { realtimeRefused = true }
        body()
    }
}
