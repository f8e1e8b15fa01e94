/// `[pipeline]`: threads, their CPUs and scheduling.
public struct PipelineSettings: Equatable, Sendable {
    /// Compute threads doing matte and compose in bands of rows.
    public var workers: Int = 2
    /// CPU of the I/O thread; nil leaves it unpinned.
    public var ioCPU: Int? = nil
    public var workerCPUs: CPUSelection = .all
    /// Run the I/O and worker threads under SCHED_FIFO.
    public var realtime: Bool = false
    /// SCHED_FIFO priority, used only when `realtime`.
    public var realtimePriority: Int = 10

    public init() {}
}
