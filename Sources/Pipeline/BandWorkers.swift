import KernelIO

/// Helper threads that each run one band of rows of the current frame's work, so compose can use
/// more than one core. The caller runs band 0 itself and waits for the rest; nothing is queued,
/// so the pipeline depth stays constant. Threads and semaphores are made once at start-up.
public final class BandWorkers {
    public let bandCount: Int
    private var threads: [WorkerThread] = []
    private var starts: [SemaphoreBox] = []
    private let done: Semaphore
    private var work: (Int) -> Void = { _ in }
    private var stopping = false

    /// - helperCPUs: one CPU mask per helper thread (0 = unpinned); bandCount = helpers + 1.
    public init(helperCPUMasks: [UInt64], realtimePriority: Int32) throws(SystemError) {
        bandCount = helperCPUMasks.count + 1
        done = try Semaphore()
        // Embedded Swift has no `unowned`; the threads never outlive self (stop() joins them).
        let unretained = Unmanaged.passUnretained(self)
        for (index, mask) in helperCPUMasks.enumerated() {
            let start = try SemaphoreBox()
            starts.append(start)
            let band = index + 1
            let thread = WorkerThread(name: "band\(band)", cpuMask: mask, realtimePriority: realtimePriority) {
                unretained.takeUnretainedValue().serve(band: band, start: start)
            }
            threads.append(thread)
        }
        for thread in threads { try thread.start() }
    }

    /// Runs `body(band)` for every band, band 0 on the calling thread, and returns when all are done.
    /// `body` must be set once with `setWork` rather than passed per frame, so no closure is made per frame.
    public func runBands() {
        for start in starts { start.semaphore.post() }
        work(0)
        for _ in starts { done.wait() }
    }

    public func setWork(_ body: @escaping (Int) -> Void) { work = body }

    /// The rows of band `band` out of `rows` total, as even as possible.
    public func rows(ofBand band: Int, total rows: Int) -> Range<Int> {
        let lower = rows * band / bandCount
        let upper = rows * (band + 1) / bandCount
        return lower..<upper
    }

    public var refusedRealtime: Bool { threads.contains { $0.realtimeRefused } }

    public func stop() {
        stopping = true
        for start in starts { start.semaphore.post() }
        for thread in threads { thread.join() }
        threads.removeAll()
    }

    private func serve(band: Int, start: SemaphoreBox) {
        while true {
            start.semaphore.wait()
            if stopping { return }
            work(band)
            done.post()
        }
    }

    deinit { if !threads.isEmpty { stop() } }
}
