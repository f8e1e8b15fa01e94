import Frames
import FrameSync
import KernelIO
import Synchronization

/// Drives Source → FrameSync → FrameProcessor → Sink. The calling thread is the I/O thread (it
/// alone touches the source and FrameSync); one compute thread builds the matte, composes with
/// the band workers and presents. Exactly one frame is in compute at a time: constant depth.
public final class PipelineRunner<Source: FrameSource & ~Copyable, Sink: FrameSink & ~Copyable> {
    public let statistics = PipelineStatistics()
    private var source: Source
    private var sink: Sink
    private let processor: FrameProcessor
    private let pacing: PacingMode
    private var sync: FrameSync
    private let backdrop: () -> ImageView

    /// The pair handed to compute: colour slot | depth slot << 16, or -1.
    private let handedOff = Atomic<Int>(-1)
    /// The pair compute has finished reading, for the I/O thread to give back to the source.
    private let finished = Atomic<Int>(-1)
    private let stopping = Atomic<Bool>(false)
    private var captureNanoseconds: UInt64 = 0
    private var pairStamp = FrameStamp(nanoseconds: 0, sequence: 0)
    private let jobReady: SemaphoreBox
    private let computeIdle: SemaphoreBox
    private var computeThread: WorkerThread?
    private var outputSlot = 0
    public private(set) var pairsHandedOff = 0

    public init(source: consuming Source, sink: consuming Sink, processor: FrameProcessor, pacing: PacingMode,
                syncToleranceNanoseconds: UInt64, backdrop: @escaping () -> ImageView) throws(SystemError) {
        self.source = source
        self.sink = sink
        self.processor = processor
        self.pacing = pacing
        self.backdrop = backdrop
        sync = FrameSync(toleranceNanoseconds: syncToleranceNanoseconds)
        jobReady = try SemaphoreBox()
        computeIdle = try SemaphoreBox()
        computeIdle.semaphore.post()
    }

    /// Starts the compute thread. Call once before `run`.
    public func start(computeCPUMask: UInt64, realtimePriority: Int32) throws(SystemError) {
        // Embedded Swift has no `unowned`; stop() joins the thread before self can go.
        let unretained = Unmanaged.passUnretained(self)
        let thread = WorkerThread(name: "compute", cpuMask: computeCPUMask, realtimePriority: realtimePriority) {
            unretained.takeUnretainedValue().computeLoop()
        }
        try thread.start()
        computeThread = thread
    }

    public var computeRefusedRealtime: Bool { computeThread?.realtimeRefused ?? false }

    /// Runs the I/O loop until the source ends, `frameLimit` pairs were handed off (0 = no limit),
    /// or `keepRunning` returns false. `keepRunning` is polled at least every `pollNanoseconds`.
    /// With `waitForInput`, the loop sleeps there (one epoll set holding the cameras and
    /// everything else the I/O thread serves) and then takes what the source has without
    /// blocking; without it, the source itself waits.
    /// Returns the last source event that ended the loop (`.ended`), or `.idle` when stopped.
    @discardableResult
    public func run(frameLimit: Int = 0, pollNanoseconds: UInt64 = 20_000_000,
                    waitForInput: ((UInt64) -> Void)? = nil, keepRunning: () -> Bool) -> SourceEvent {
        var ending = SourceEvent.idle
        var released = SlotList()
        // Sleep only when the source had nothing: a wait per event would cap the loop at one
        // event per wake-up, and an epoll set may not report a node readable (v4l2loopback 0.12:
        // epoll_wait timed out while the DQBUF after it succeeded).
        var sourceWasIdle = true
        while keepRunning() {
            giveBackFinished()
            var timeout = pollNanoseconds
            if let waitForInput {
                if sourceWasIdle { waitForInput(pollNanoseconds) }
                timeout = 0
            }
            let event = source.nextEvent(timeoutNanoseconds: timeout)
            sourceWasIdle = event == .idle
            released.removeAll()
            var pair: SyncPair? = nil
            switch event {
            case .color(let slot, let stamp):
                pair = sync.offerColor(slot: slot, stamp: stamp, releasing: &released)
                pairStamp = stamp
            case .depth(let slot, let stamp):
                pair = sync.offerDepth(slot: slot, stamp: stamp, releasing: &released)
            case .idle:
                continue
            case .ended, .disconnected:
                sync.drain(into: &released)
                release(released)
                ending = event
            }
            if event == .ended || event == .disconnected { break }
            release(released)
            statistics.syncStatistics = sync.statistics
            if let pair { handOff(pair) }
            if frameLimit > 0 && pairsHandedOff >= frameLimit { break }
        }
        return ending
    }

    /// Waits for the frame in compute, stops the threads and gives every slot back.
    public func stop() {
        guard let thread = computeThread else { return }
        computeIdle.semaphore.wait()
        giveBackFinished()
        stopping.store(true, ordering: .sequentiallyConsistent)
        jobReady.semaphore.post()
        thread.join()
        computeThread = nil
        processor.stop()
        var released = SlotList()
        sync.drain(into: &released)
        release(released)
        statistics.syncStatistics = sync.statistics
    }

    public func finishSink() -> String? { sink.finish() }

    /// Lends the sink to the I/O thread between frames (compute is idle for the duration), e.g.
    /// to show a message screen while the camera is away.
    public func withIdleSink<R>(_ body: (inout Sink) -> R) -> R {
        computeIdle.semaphore.wait()
        defer { computeIdle.semaphore.post() }
        giveBackFinished()
        return body(&sink)
    }

    /// Draws into the next output slot and presents it from the I/O thread while compute is idle:
    /// message screens ("camera disconnected") that keep the display alive without camera frames.
    @discardableResult
    public func presentBetweenFrames(_ draw: (ImageView) -> Void) -> UInt64? {
        computeIdle.semaphore.wait()
        defer { computeIdle.semaphore.post() }
        giveBackFinished()
        draw(sink.outputView(slot: outputSlot))
        let shown = sink.present(slot: outputSlot, stamp: FrameStamp(nanoseconds: MonotonicClock.nowNanoseconds(), sequence: 0))
        outputSlot = (outputSlot + 1) % sink.slotCount
        return shown
    }

    /// Shows the most recent frame again (a display capture needs a commit to ride on, and a
    /// stalled camera brings none).
    @discardableResult
    public func presentLastFrameAgain() -> UInt64? {
        computeIdle.semaphore.wait()
        defer { computeIdle.semaphore.post() }
        let previous = sink.outputView(slot: lastComposedSlot)
        let next = sink.outputView(slot: outputSlot)
        for row in 0..<next.size.height {
            next.row(row).copyMemory(from: previous.row(row), byteCount: min(next.bytesPerRow, previous.bytesPerRow))
        }
        let shown = sink.present(slot: outputSlot, stamp: FrameStamp(nanoseconds: MonotonicClock.nowNanoseconds(), sequence: 0))
        outputSlot = (outputSlot + 1) % sink.slotCount
        return shown
    }

    /// The slot of the most recently composed frame (what a photo of the screen shows).
    public var lastComposedSlot: Int { (outputSlot + sink.slotCount - 1) % sink.slotCount }

    /// Lends the source between frames with every slot given back, e.g. to reopen a camera.
    public func withIdleSource<R>(_ body: (inout Source) -> R) -> R {
        computeIdle.semaphore.wait()
        defer { computeIdle.semaphore.post() }
        giveBackFinished()
        var released = SlotList()
        sync.drain(into: &released)
        release(released)
        return body(&source)
    }

    private func handOff(_ pair: SyncPair) {
        let now = MonotonicClock.nowNanoseconds()
        switch pacing {
        case .lockstep:
            computeIdle.semaphore.wait()
        case .live:
            if !computeIdle.semaphore.wait(timeoutMilliseconds: 0) {
                source.releaseColor(slot: pair.colorSlot)
                source.releaseDepth(slot: pair.depthSlot)
                statistics.droppedLate += 1
                return
            }
        }
        giveBackFinished()
        statistics.sync.record(nanoseconds: now > pair.captureNanoseconds ? now - pair.captureNanoseconds : 0)
        captureNanoseconds = pair.captureNanoseconds
        pairStamp.nanoseconds = pair.captureNanoseconds
        handedOff.store(pair.colorSlot | pair.depthSlot << 16, ordering: .releasing)
        pairsHandedOff += 1
        jobReady.semaphore.post()
    }

    private func giveBackFinished() {
        let job = finished.exchange(-1, ordering: .acquiringAndReleasing)
        guard job >= 0 else { return }
        source.releaseColor(slot: job & 0xffff)
        source.releaseDepth(slot: job >> 16)
    }

    private func release(_ released: SlotList) {
        for index in 0..<released.colorCount { source.releaseColor(slot: released.color(index)) }
        for index in 0..<released.depthCount { source.releaseDepth(slot: released.depth(index)) }
    }

    private func computeLoop() {
        while true {
            jobReady.semaphore.wait()
            if stopping.load(ordering: .sequentiallyConsistent) { return }
            let job = handedOff.exchange(-1, ordering: .acquiringAndReleasing)
            guard job >= 0 else { computeIdle.semaphore.post(); continue }
            let colorSlot = job & 0xffff
            let depthSlot = job >> 16
            let captured = captureNanoseconds
            let stamp = pairStamp

            let matteStart = MonotonicClock.nowNanoseconds()
            processor.buildMatte(depth: source.depthView(slot: depthSlot), unitMM: source.depthUnitMM)
            let composeStart = MonotonicClock.nowNanoseconds()
            processor.compose(camera: source.colorView(slot: colorSlot), background: backdrop(),
                              into: sink.outputView(slot: outputSlot))
            let presentStart = MonotonicClock.nowNanoseconds()
            // The camera buffers are no longer read: they can go back before the frame is shown.
            finished.store(job, ordering: .releasing)

            let shownAt = sink.present(slot: outputSlot, stamp: stamp)
            let presentEnd = MonotonicClock.nowNanoseconds()
            statistics.matte.record(nanoseconds: composeStart - matteStart)
            statistics.compose.record(nanoseconds: presentStart - composeStart)
            statistics.present.record(nanoseconds: presentEnd - presentStart)
            if let shownAt {
                statistics.presented += 1
                statistics.endToEnd.record(nanoseconds: shownAt > captured ? shownAt - captured : 0)
            } else {
                statistics.droppedBySink += 1
            }
            outputSlot = (outputSlot + 1) % sink.slotCount
            computeIdle.semaphore.post()
        }
    }
}
