import Frames
import KernelIO
import Synchronization

/// SIGHUP's rescan of the backdrop folder, on a thread of its own: `BackgroundLibrary.load`
/// decodes every file once to check it (seconds for a full folder on the board), and the I/O
/// thread must keep pumping frames and buttons meanwhile.
///
/// Hand-off, one rescan at a time, through one atomic phase (idle → requested → done):
/// - `start` (the I/O thread): idle → requested, after writing the request; wakes the worker.
///   False, changing nothing, while a rescan is under way or its result untaken.
/// - the worker loads the library, stores it, sets done, then signals `wake` (watched by the
///   loop under `token`).
/// - `take` (the I/O thread, after `wake` was readable): done → idle, the library once.
/// The library is made on the worker and from `take` on used by the I/O thread alone (it is not
/// thread-safe, see `BackgroundLibrary`); the phase's release/acquire orders the hand-over.
/// `stop()` before the last reference goes: it lets a rescan under way finish, then joins.
public final class BackdropRescan: @unchecked Sendable {
    public struct Request {
        public var directory: String
        public var outputSize: FrameSize
        public var fit: FitMode

        public init(directory: String, outputSize: FrameSize, fit: FitMode) {
            self.directory = directory
            self.outputSize = outputSize
            self.fit = fit
        }
    }

    /// The loop token its wake is watched under.
    public let token: UInt64
    private let wake: WakeSignal
    private let go: Semaphore
    private let phase = Atomic<UInt8>(0)
    private let stopRequested = Atomic<Bool>(false)
    private var thread: WorkerThread? = nil
    // The I/O thread's before `requested`, the worker's after.
    private var pending: Request? = nil
    // The worker's before `done`, the I/O thread's after.
    private var loaded: (library: BackgroundLibrary?, skipped: [String], notices: [String])? = nil

    private static let idle: UInt8 = 0, requested: UInt8 = 1, done: UInt8 = 2

    /// Starts the worker (pinned to `cpuMask`, 0 = unpinned) and watches its wake in `loop`.
    public init(loop: EventLoop, cpuMask: UInt64) throws(SystemError) {
        wake = try WakeSignal()
        go = try Semaphore()
        token = loop.newToken()
        try wake.withRawValue { (fd) throws(SystemError) in try loop.watch(fd, token: token) }
        // Embedded Swift has no `unowned`; stop() joins the thread before self can go.
        let unretained = Unmanaged.passUnretained(self)
        let worker = WorkerThread(name: "backdrops", cpuMask: cpuMask) { unretained.takeUnretainedValue().serve() }
        try worker.start()
        thread = worker
    }

    public func start(_ request: Request) -> Bool {
        guard phase.load(ordering: .acquiring) == Self.idle else { return false }
        pending = request
        phase.store(Self.requested, ordering: .releasing)
        go.post()
        return true
    }

    /// The rescanned library with its warning lines (files skipped; the folder as a whole), once.
    /// The library is nil when its memory was not there (the notice says so): keep the set shown.
    public func take(_ ready: UInt64) -> (library: BackgroundLibrary?, skipped: [String], notices: [String])? {
        if ready & token != 0 { wake.drain() }
        guard phase.load(ordering: .acquiring) == Self.done else { return nil }
        let result = loaded
        loaded = nil
        phase.store(Self.idle, ordering: .releasing)
        return result
    }

    public func stop() {
        guard let thread else { return }
        stopRequested.store(true, ordering: .releasing)
        go.post()
        thread.join()
        self.thread = nil
    }

    private func serve() {
        while true {
            go.wait()
            if phase.load(ordering: .acquiring) == Self.requested, let request = pending {
                pending = nil
                do throws(SystemError) {
                    let report = try BackgroundLibrary.loadReporting(directory: request.directory, outputSize: request.outputSize,
                                                                     fit: request.fit)
                    loaded = (report.library, report.skipped, report.notices)
                } catch {
                    loaded = (nil, [], ["backgrounds: no memory for the rescanned backdrops (\(error.message))"])
                }
                phase.store(Self.done, ordering: .releasing)
                wake.signal()
            }
            if stopRequested.load(ordering: .acquiring) { return }
        }
    }
}
