import Frames
import ImageCodec
import KernelIO
import Synchronization

/// The backdrops' own thread: everything about backdrops that takes longer than a frame runs here,
/// so the I/O thread keeps pumping frames and buttons meanwhile. Three kinds of job:
/// - `.fill`: decode one backdrop into one of the library's fixed slots (a button's switch, or a
///   neighbour decoded ahead of the next press; a 1080p JPEG takes hundreds of ms on the board);
/// - `.rescan`: SIGHUP's reload of the folder (`BackgroundLibrary.load` decodes every file once to
///   check it: seconds for a full folder);
/// - `.task`: anything else of the booth's that touches files (the rollback gesture's renames).
///
/// Hand-off, one job at a time, through one atomic phase (idle → requested → done):
/// - `start` (the I/O thread only): idle → requested, after writing the job; wakes the worker.
///   False, changing nothing, while a job is under way or its result untaken (`isIdle`).
/// - the worker runs the job, stores its result, sets done, then signals `wake` (watched by the
///   loop under `token`).
/// - `take` (the I/O thread only, after `wake` was readable): done → idle, the result once.
/// What a job names is the worker's alone from `start` until `take`: a slot's pixels (the library
/// counts a slot being filled as holding nothing, so its view is never published to compute), a
/// task object. A rescanned library is made on the worker and from `take` on used by the I/O thread
/// alone (it is not thread-safe, see `BackgroundLibrary`). The phase's release/acquire orders each
/// hand-over; nothing else is shared.
/// `stop` before the last reference goes: a rescan under way gives up at its next file; then either
/// the thread is joined (a fill or task under way finishes first: one image at most), or, for the
/// service's stop, the job is left to end on its own while the process exits (see `stop`).
public final class BackdropWorker: @unchecked Sendable {
    /// SIGHUP's rescan: the folder and the output it is prescaled for; `keepShown` is the name
    /// shown now, made current in the new set (decoded here, not on the I/O thread) when it has it.
    public struct Request {
        public var directory: String
        public var outputSize: FrameSize
        public var fit: FitMode
        public var keepShown: String?

        public init(directory: String, outputSize: FrameSize, fit: FitMode, keepShown: String? = nil) {
            self.directory = directory
            self.outputSize = outputSize
            self.fit = fit
            self.keepShown = keepShown
        }
    }

    public enum Job {
        case fill(BackdropFill)
        case rescan(Request)
        case task(any BackdropTask)
    }

    public enum Result {
        /// The slot holds the image now; `problem` when it could not be decoded (the gradient is
        /// there instead), for the caller to log.
        case filled(BackdropFill, problem: String?)
        /// The library is nil when its memory was not there (the notice says so): keep the set shown.
        case rescanned(library: BackgroundLibrary?, skipped: [String], notices: [String])
        case taskDone(any BackdropTask)
    }

    /// How a fill decodes: the real decoder, or a test's slow fake around it.
    public typealias Decode = (BackdropFill, ImageDecoder) -> String?

    /// The loop token its wake is watched under.
    public let token: UInt64
    private let wake: WakeSignal
    private let go: Semaphore
    private let phase = Atomic<UInt8>(0)
    private let stopRequested = Atomic<Bool>(false)
    private var thread: WorkerThread? = nil
    // The reference a non-waiting stop keeps while a job runs on (I/O thread only).
    private var keptForTheJob: Unmanaged<BackdropWorker>? = nil
    private let decode: Decode
    // The I/O thread's before `requested`, the worker's after.
    private var pending: Job? = nil
    // The worker's before `done`, the I/O thread's after.
    private var finished: Result? = nil

    private static let idle: UInt8 = 0, requested: UInt8 = 1, done: UInt8 = 2

    /// Starts the worker (pinned to `cpuMask`, 0 = unpinned) and watches its wake in `loop`.
    public init(loop: EventLoop, cpuMask: UInt64, decode: @escaping Decode = { fill, decoder in fill.decode(with: decoder) })
        throws(SystemError) {
        wake = try WakeSignal()
        go = try Semaphore()
        self.decode = decode
        token = loop.newToken()
        try wake.withRawValue { (fd) throws(SystemError) in try loop.watch(fd, token: token) }
        // Embedded Swift has no `unowned`; stop() joins the thread before self can go.
        let unretained = Unmanaged.passUnretained(self)
        let worker = WorkerThread(name: "backdrops", cpuMask: cpuMask) { unretained.takeUnretainedValue().serve() }
        try worker.start()
        thread = worker
    }

    /// Nothing under way and nothing to take (I/O thread).
    public var isIdle: Bool {
        phase.load(ordering: .acquiring) == Self.idle && thread != nil && !stopRequested.load(ordering: .relaxed)
    }

    public func start(_ job: Job) -> Bool {
        guard isIdle else { return false }
        pending = job
        phase.store(Self.requested, ordering: .releasing)
        go.post()
        return true
    }

    /// The finished job's result, once.
    public func take(_ ready: UInt64) -> Result? {
        if ready & token != 0 { _ = wake.drain() }
        guard phase.load(ordering: .acquiring) == Self.done else { return nil }
        let result = finished
        finished = nil
        phase.store(Self.idle, ordering: .releasing)
        return result
    }

    /// Starts nothing more and ends the thread. `waiting` (tests, tools, a rescan's end): a job
    /// under way finishes, then the thread is joined. Not waiting (the service's stop: its budget
    /// is 1 s, and one decode takes hundreds of ms on a loaded board): when a job is under way it
    /// is left to finish while the process exits, and the worker keeps itself (one reference it
    /// never gives back, with the job's slot or task) so that job never touches freed memory; the
    /// caller exits the process soon after. Idle, it is joined at once either way. A waiting stop
    /// after that (a test, or a caller that finds it can wait after all) joins the thread and gives
    /// the kept reference back, so nothing is left over for LeakSanitizer.
    public func stop(waiting: Bool = true) {
        guard let thread else { return }
        if !stopRequested.load(ordering: .relaxed) {
            stopRequested.store(true, ordering: .releasing)
            go.post()
            if !waiting && phase.load(ordering: .acquiring) == Self.requested {
                keptForTheJob = Unmanaged.passRetained(self)
                return
            }
        } else if !waiting {
            return
        }
        thread.join()
        self.thread = nil
        keptForTheJob?.release()
        keptForTheJob = nil
    }

    private func serve() {
        let decoder = ImageDecoder()
        while true {
            go.wait()
            if phase.load(ordering: .acquiring) == Self.requested, let job = pending {
                pending = nil
                finished = run(job, decoder: decoder)
                phase.store(Self.done, ordering: .releasing)
                wake.signal()
            }
            if stopRequested.load(ordering: .acquiring) { return }
        }
    }

    private func run(_ job: Job, decoder: ImageDecoder) -> Result {
        switch job {
        case .fill(let fill):
            return .filled(fill, problem: decode(fill, decoder))
        case .task(let task):
            task.run()
            return .taskDone(task)
        case .rescan(let request):
            do throws(SystemError) {
                let report = try BackgroundLibrary.loadReporting(directory: request.directory, outputSize: request.outputSize,
                                                                 fit: request.fit,
                                                                 giveUp: { self.stopRequested.load(ordering: .relaxed) })
                if let shown = request.keepShown {
                    // The backdrop shown stays shown when the new set still has it (a rescan of the same folder).
                    for index in 0..<report.library.count where report.library.name(at: index) == shown {
                        _ = report.library.select(index)
                        break
                    }
                }
                return .rescanned(library: report.library, skipped: report.skipped, notices: report.notices)
            } catch {
                return .rescanned(library: nil, skipped: [],
                                  notices: ["backgrounds: no memory for the rescanned backdrops (\(error.message))"])
            }
        }
    }
}

/// Work of the booth's that touches files and must not hold the I/O thread, run once on the
/// backdrop worker (see `BackdropWorker`): `run` on the worker, its outcome read by the I/O thread
/// after `take` returned it.
public protocol BackdropTask: AnyObject {
    func run()
}
