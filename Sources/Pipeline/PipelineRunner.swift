import Frames
import FrameSync
import KernelIO
import Synchronization

/// Drives Source → FrameSync → compute → Sink on an event loop.
///
/// Threads and what each owns: the I/O thread (the one calling `run`/`service`) alone touches the
/// source, FrameSync, the sink, the ScanoutQueue and the statistics. The compute thread touches
/// the FrameProcessor and the views inside the job it was given, nothing else. They meet in three
/// places only: `jobs` (I/O → compute, with `jobReady` to wake compute), `results` (compute →
/// I/O, with `wake` to wake the loop) and `stopping`. Exactly one frame is in compute at a time:
/// constant depth. The I/O thread never waits for compute or for the display: flips and results
/// arrive as readable fds in the loop.
///
/// Scanout: an output slot is taken from `scanout` before a job is handed off and is the only
/// one compute writes; while a flip is queued the next frame is composed into a third slot and
/// waits (`composed`) for the flip, then is queued at once. When no slot is free the pair is
/// dropped (live) or held (lockstep).
///
/// Camera view on a sink that shows camera buffers directly (`FrameSink.showsCameraDirectly`):
/// a pair skips compute; its depth slot goes back at once and its colour slot is submitted as a
/// direct slot, held (`heldByDisplay`) until a later flip says it left the screen, since the
/// display reads the camera's own buffer until then.
public final class PipelineRunner<Source: FrameSource & ~Copyable, Sink: FrameSink & ~Copyable> {
    /// I/O thread only (compute's timings come back in each result).
    public let statistics = PipelineStatistics()
    public let loop: EventLoop
    public private(set) var scanout: ScanoutQueue
    public private(set) var pairsHandedOff = 0
    /// Pairs taken from the source and not dropped: handed off to compute, or shown as they are
    /// (camera view). `run(frameLimit:)` counts these.
    public var pairsTaken: Int { pairsHandedOff + pairsSubmittedDirectly }
    private var pairsSubmittedDirectly = 0
    /// `.ended` or `.disconnected` once the source said so; cleared by `reopenSource`.
    public private(set) var sourceEnding: SourceEvent? = nil
    /// Set when the reopened source's fds could not be put in the loop (the caller reports it).
    public private(set) var watchFailure: SystemError? = nil
    /// Frames that reached the screen or file (a progress count for the heartbeat).
    public var presented: Int { statistics.presented }

    private var source: Source
    private var sink: Sink
    private let processor: FrameProcessor
    private let pacing: PacingMode
    private var sync: FrameSync
    private var generation: FrameGeneration

    private let jobs: HandOffSlot<FrameJob>
    private let results: HandOffSlot<FrameResult>
    private let jobReady: SemaphoreBox
    private let wake: WakeSignal
    private let stopping = Atomic<Bool>(false)
    private var computeThread: WorkerThread?
    /// Tests only: called on the compute thread after each frame's matte, before the stop is
    /// looked at, so a test can hold compute there until it has asked for the stop. Set before
    /// `start` and not changed while the thread runs (the thread's start orders the write).
    var afterMatteForTests: (() -> Void)? = nil

    private var jobInFlight = false
    private var heldPair: SyncPair? = nil
    private var composed: (slot: Int, stamp: FrameStamp)? = nil
    private var queuedCapture: UInt64 = 0
    private var frameLimit = 0
    private var finishedFrameWatch: (from: Int, body: (FinishedFrame, inout Sink) -> Void)? = nil
    private var released = SlotList()
    /// Colour slots of the current source the display holds (bit n: slot n, queued or on screen).
    /// Cleared when the source is reopened: the old camera's buffers went with it.
    private var heldByDisplay: UInt64 = 0
    /// I/O thread: while true, camera-view frames are composed even where the sink could show
    /// them directly, so an on-screen message (drawn by compose) is seen.
    public var composesCameraView = false
    private let wakeToken: UInt64
    private let sinkToken: UInt64
    private let sourceToken: UInt64
    private let sourceDeadline: EventLoop.DeadlineID
    /// Cameras: epoll is not always told (v4l2loopback 0.12 once left epoll_wait asleep while a
    /// DQBUF would have succeeded), so an idle stream is looked at again on the loop's timer: 20 ms
    /// after the last frame, then at doubling intervals up to 1 s while nothing comes
    /// (`SourceRecheck`; a stalled camera would otherwise wake the I/O thread 50 times a second for
    /// nothing). A frame starts the series again. The fds stay watched throughout, so a frame after
    /// a long stall is taken when its fd says so, not at the next recheck.
    ///
    /// The interval the next recheck waits (I/O thread; read by tests).
    public private(set) var recheckNanoseconds: UInt64 = SourceRecheck.firstNanoseconds
    /// When the source is looked at again with no frame (nil: armed afresh from now).
    private var recheckDue: UInt64? = nil
    /// Rechecks that found nothing, in a row since the last frame.
    public private(set) var emptyRechecks = 0
    /// Stalls (at least one empty recheck) ended by a frame taken in a wake where the camera's fd
    /// was readable, and ended otherwise (found by a recheck or another wake: epoll missed it).
    public private(set) var stallsEndedOnDescriptor = 0
    public private(set) var stallsEndedOtherwise = 0
    /// Whether the wake being served had a source fd readable (set by `serve`, cleared by `service`).
    private var wokeBySource = false

    /// - loop: the I/O thread's event loop to live in (nil: one of its own, for offline runs).
    public init(source: consuming Source, sink: consuming Sink, processor: FrameProcessor, pacing: PacingMode,
                syncToleranceNanoseconds: UInt64, generation: FrameGeneration, loop: EventLoop? = nil) throws(SystemError) {
        let slotCount = sink.slotCount
        let initiallyShown = sink.initiallyShownSlot
        let sinkFD = sink.withCompletionDescriptor { $0 }
        self.source = source
        self.sink = sink
        self.processor = processor
        self.pacing = pacing
        self.generation = generation
        self.generation.number = 1
        sync = FrameSync(toleranceNanoseconds: syncToleranceNanoseconds)
        var scanout = ScanoutQueue(slotCount: slotCount)
        if let initiallyShown { scanout.shown(initiallyShown) }
        self.scanout = scanout
        let placeholder = generation.backdrop
        jobs = HandOffSlot(placeholder: FrameJob(colorSlot: 0, depthSlot: 0, outputSlot: 0, color: placeholder,
                                                 depth: placeholder, output: placeholder, depthUnitMM: 1,
                                                 stamp: FrameStamp(nanoseconds: 0, sequence: 0), generation: generation))
        results = HandOffSlot(placeholder: FrameResult(colorSlot: 0, depthSlot: 0, outputSlot: 0,
                                                       stamp: FrameStamp(nanoseconds: 0, sequence: 0),
                                                       matteNanoseconds: 0, composeNanoseconds: 0))
        jobReady = try SemaphoreBox()
        wake = try WakeSignal()
        let eventLoop: EventLoop
        if let loop { eventLoop = loop } else { eventLoop = try EventLoop() }
        self.loop = eventLoop
        let loop = eventLoop
        wakeToken = loop.newToken()
        sinkToken = loop.newToken()
        sourceToken = loop.newToken()
        sourceDeadline = loop.newDeadline()
        try wake.withRawValue { (fd) throws(SystemError) in try loop.watch(fd, token: wakeToken) }
        try loop.watch(sinkFD, token: sinkToken)
        try watchSource()
    }

    /// The tokens this runner registered; a caller sharing the loop ignores these.
    public var tokens: UInt64 { wakeToken | sinkToken | sourceToken }

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

    /// Changes the generation compute uses from the next handed-off frame on (I/O thread).
    public func publish(_ change: (inout FrameGeneration) -> Void) {
        let number = generation.number
        change(&generation)
        generation.number = number + 1
    }

    public var currentGeneration: FrameGeneration { generation }

    /// Runs the loop until the source ends, `frameLimit` pairs were taken (0 = no limit) and
    /// their frames are out, or `between` returns false. `between` gets the tokens that woke the
    /// loop that are not the runner's (0 when a deadline did), before the runner serves its own.
    /// Returns the source's ending (`.ended`, `.disconnected`) or `.idle` when stopped. For runs
    /// that own their loop (offline, tests); the booth's loop calls `serve` and `prepareWait`.
    @discardableResult
    public func run(frameLimit: Int = 0, between: (UInt64) -> Bool = { _ in true }) -> SourceEvent {
        limitFrames(to: frameLimit)
        var ready: UInt64 = 0
        while true {
            if let ending = serve(ready) { return ending }
            prepareWait()
            ready = loop.wait()
            if !between(ready & ~tokens) { return .idle }
        }
    }

    /// Frames are taken until `frameLimit` pairs were (0 = no limit); `serve` then says `.idle`
    /// once their frames are out.
    public func limitFrames(to frameLimit: Int) { self.frameLimit = frameLimit }

    /// Serves one wake of the loop that `ready` (the tokens it returned, 0 before the first wait)
    /// describes: flips, compute's result, frames from the source. Nil while the run goes on;
    /// once the source ended, or the frame limit was reached, and every frame in flight is out:
    /// the source's ending (`.ended`, `.disconnected`), else `.idle`.
    public func serve(_ ready: UInt64) -> SourceEvent? {
        wokeBySource = ready & sourceToken != 0
        service()
        guard finishedLimit || (sourceEnding != nil && !jobInFlight && composed == nil) else { return nil }
        loop.setDeadline(sourceDeadline, at: nil)
        recheckDue = nil
        return sourceEnding ?? .idle
    }

    /// Before the loop sleeps: the source's own deadline (its next frame's due time, or the next
    /// look at an idle camera).
    public func prepareWait() {
        loop.setDeadline(sourceDeadline, at: sourceDueTime())
    }

    /// Does everything that can be done now without waiting: flips that completed, a result from
    /// compute, frames from the source. Call after every wake of the loop.
    public func service() {
        wake.drain()
        collectCompletions()
        collectResult()
        pumpSource()
        wokeBySource = false
    }

    /// Stops the threads: a frame in compute is finished or, when its matte is done, dropped
    /// before its compose; every slot but that frame's is given back.
    public func stop() {
        guard let thread = computeThread else { return }
        stopping.store(true, ordering: .releasing)
        jobReady.semaphore.post()
        thread.join()
        computeThread = nil
        processor.stop()
        collectResult()
        if let composed {
            scanout.abandon(composed.slot)
            self.composed = nil
        }
        if let pair = heldPair {
            source.releaseColor(slot: pair.colorSlot)
            source.releaseDepth(slot: pair.depthSlot)
            heldPair = nil
        }
        drainSync()
        statistics.syncStatistics = sync.statistics
    }

    /// Whether `stop` was called (any thread; tests hold compute until it reads true).
    var stopRequested: Bool { stopping.load(ordering: .acquiring) }

    public func finishSink() -> String? { sink.finish() }

    /// Lends the sink to the I/O thread (e.g. for writeback or the backdrop plane).
    public func withSink<R>(_ body: (inout Sink) -> R) -> R { body(&sink) }

    /// Lends the source to the I/O thread (e.g. for its capture statistics).
    public func withSource<R>(_ body: (borrowing Source) -> R) -> R { body(source) }

    /// Draws a still (a notice while the camera is away) into a free output slot on the I/O thread
    /// and submits it. False when compute holds a frame or no slot is free: try again later.
    @discardableResult
    public func showStill(_ draw: (ImageView) -> Void) -> Bool {
        guard !jobInFlight, composed == nil, scanout.canQueue, let slot = scanout.take() else { return false }
        draw(sink.outputView(slot: slot))
        submit(slot: slot, stamp: FrameStamp(nanoseconds: MonotonicClock.nowNanoseconds(), sequence: 0))
        return true
    }

    /// Lends, once, the first frame compute finishes whose sequence is `sequence` or later (a
    /// frame handed off after this call: `pairsHandedOff` now), on the I/O thread inside
    /// `service`, before its camera slots go back and before it is submitted (so a writeback
    /// armed in `body` is carried by this frame's commit). The views are valid only inside
    /// `body`: compute is idle then (no frame is in flight until the next hand-off), so the matte
    /// and the output are this frame's. A newer call replaces an older one; `cancelFinishedFrame`
    /// drops it. For a photo, not per frame: storing `body` allocates.
    public func whenFrameFinished(from sequence: Int, _ body: @escaping (FinishedFrame, inout Sink) -> Void) {
        finishedFrameWatch = (sequence, body)
    }

    public func cancelFinishedFrame() { finishedFrameWatch = nil }

    /// Reopens the source once nothing in flight reads its buffers: every slot is given back, then
    /// `body` runs. Nil when compute still holds a frame (try again on the next wake).
    public func reopenSource<R>(_ body: (inout Source) -> R) -> R? {
        guard !jobInFlight else { return nil }
        if let pair = heldPair {
            source.releaseColor(slot: pair.colorSlot)
            source.releaseDepth(slot: pair.depthSlot)
            heldPair = nil
        }
        drainSync()
        // The display may still show an old buffer; it is the old camera's, not a slot to give back.
        heldByDisplay = 0
        source.withDescriptors { color, depth in
            loop.unwatch(color)
            loop.unwatch(depth)
        }
        let result = body(&source)
        sourceEnding = nil
        do throws(SystemError) { try watchSource(); watchFailure = nil } catch { watchFailure = error }
        return result
    }

    // MARK: I/O thread

    private var finishedLimit: Bool {
        frameLimit > 0 && pairsTaken >= frameLimit && !jobInFlight && composed == nil && scanout.canQueue
    }

    private func watchSource() throws(SystemError) {
        var failure: SystemError? = nil
        source.withDescriptors { color, depth in
            do throws(SystemError) {
                try loop.watch(color, token: sourceToken)
                try loop.watch(depth, token: sourceToken)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    private func sourceDueTime() -> UInt64? {
        guard sourceEnding == nil, !(frameLimit > 0 && pairsTaken >= frameLimit) else { return nil }
        if heldPair != nil { return nil }
        guard let due = source.nextFrameDueNanoseconds else { return nextRecheck() }
        return due
    }

    /// The recheck deadline: kept while it is ahead (other wakes do not push it back), doubled
    /// once it passed with no frame (`service` has just looked and found nothing).
    private func nextRecheck() -> UInt64 {
        let now = MonotonicClock.nowNanoseconds()
        if let due = recheckDue, due > now { return due }
        if recheckDue != nil {
            emptyRechecks += 1
            recheckNanoseconds = min(recheckNanoseconds * 2, SourceRecheck.longestNanoseconds)
        }
        let due = now + recheckNanoseconds
        recheckDue = due
        return due
    }

    private func frameArrived() {
        if emptyRechecks > 0 {
            if wokeBySource { stallsEndedOnDescriptor += 1 } else { stallsEndedOtherwise += 1 }
        }
        recheckDue = nil
        recheckNanoseconds = SourceRecheck.firstNanoseconds
        emptyRechecks = 0
    }

    private func collectCompletions() {
        while let completion = sink.takeCompletion() {
            guard scanout.queued == completion.slot else { continue }
            leftScreen(scanout.flipped())
            shown(at: completion.nanoseconds, captured: queuedCapture)
            if let waiting = composed {
                composed = nil
                submit(slot: waiting.slot, stamp: waiting.stamp)
            }
        }
    }

    private func collectResult() {
        guard let result = results.take() else { return }
        jobInFlight = false
        // Compared as a wrapping difference: the stamp's sequence is the hand-off count, truncated.
        if let watch = finishedFrameWatch,
           Int32(bitPattern: result.stamp.sequence &- UInt32(truncatingIfNeeded: watch.from)) >= 0 {
            finishedFrameWatch = nil
            let frame = FinishedFrame(color: source.colorView(slot: result.colorSlot),
                                      depth: source.depthView(slot: result.depthSlot), depthUnitMM: source.depthUnitMM,
                                      alpha: processor.alphaView, output: sink.outputView(slot: result.outputSlot),
                                      stamp: result.stamp)
            watch.body(frame, &sink)
        }
        source.releaseColor(slot: result.colorSlot)
        source.releaseDepth(slot: result.depthSlot)
        statistics.matte.record(nanoseconds: result.matteNanoseconds)
        statistics.compose.record(nanoseconds: result.composeNanoseconds)
        if scanout.canQueue {
            submit(slot: result.outputSlot, stamp: result.stamp)
        } else {
            // A flip is still queued: this frame waits for it (the newest one wins).
            if let stale = composed {
                scanout.abandon(stale.slot)
                statistics.droppedBySink += 1
            }
            composed = (result.outputSlot, result.stamp)
        }
    }

    private func submit(slot: Int, stamp: FrameStamp) {
        let start = MonotonicClock.nowNanoseconds()
        let outcome = sink.submit(slot: slot, stamp: stamp)
        statistics.present.record(nanoseconds: MonotonicClock.nowNanoseconds() - start)
        switch outcome {
        case .shown(let time):
            scanout.queue(slot)
            leftScreen(scanout.flipped())
            shown(at: time, captured: stamp.nanoseconds)
        case .queued:
            scanout.queue(slot)
            queuedCapture = stamp.nanoseconds
        case .refused:
            scanout.abandon(slot)
            scanout.drop()
            statistics.droppedBySink += 1
        }
    }

    /// Shows colour slot `colorSlot` as it is (camera view); the slot stays the display's until
    /// it leaves the screen. False: not shown now, the caller still owns the slot.
    private func submitDirect(colorSlot: Int, stamp: FrameStamp) -> Bool {
        guard !jobInFlight, composed == nil, scanout.canQueue else { return false }
        let slot = sink.directSlot(colorSlot)
        pairsSubmittedDirectly += 1
        let start = MonotonicClock.nowNanoseconds()
        let outcome = sink.submitCamera(slot: colorSlot, stamp: stamp)
        statistics.present.record(nanoseconds: MonotonicClock.nowNanoseconds() - start)
        switch outcome {
        case .shown(let time):
            heldByDisplay |= 1 << UInt64(colorSlot)
            scanout.queue(slot)
            leftScreen(scanout.flipped())
            shown(at: time, captured: stamp.nanoseconds)
        case .queued:
            heldByDisplay |= 1 << UInt64(colorSlot)
            scanout.queue(slot)
            queuedCapture = stamp.nanoseconds
        case .refused:
            scanout.drop()
            statistics.droppedBySink += 1
            source.releaseColor(slot: colorSlot)
            return true
        }
        statistics.presentedDirectly += 1
        return true
    }

    /// A slot that left the screen: a camera buffer goes back to the camera it came from.
    private func leftScreen(_ slot: Int?) {
        guard let slot, scanout.isDirect(slot) else { return }
        let colorSlot = slot - scanout.slotCount
        let bit: UInt64 = 1 << UInt64(colorSlot)
        guard heldByDisplay & bit != 0 else { return }
        heldByDisplay &= ~bit
        source.releaseColor(slot: colorSlot)
    }

    private var showsCameraDirectly: Bool {
        generation.showCamera && !composesCameraView && sink.showsCameraDirectly
    }

    private func shown(at time: UInt64, captured: UInt64) {
        statistics.presented += 1
        statistics.endToEnd.record(nanoseconds: time > captured ? time - captured : 0)
    }

    /// Takes what the source has, a few events at a time: a source slower than its frame rate
    /// (a loaded machine rendering the synthetic scene) is always "ready", and the loop must
    /// still get back to results and signals. What is left is taken on the next pass, without
    /// sleeping (the source's fds stay readable, or its due time has passed).
    private func pumpSource() {
        var budget = 8
        while sourceEnding == nil && budget > 0 {
            budget -= 1
            collectResult()
            if let pair = heldPair {
                guard handOff(pair) else { return }
                heldPair = nil
            }
            if frameLimit > 0 && pairsTaken >= frameLimit { return }
            let event = source.nextEvent(timeoutNanoseconds: 0)
            released.removeAll()
            var pair: SyncPair? = nil
            switch event {
            case .color(let slot, let stamp):
                frameArrived()
                pair = sync.offerColor(slot: slot, stamp: stamp, releasing: &released)
            case .depth(let slot, let stamp):
                frameArrived()
                pair = sync.offerDepth(slot: slot, stamp: stamp, releasing: &released)
            case .idle:
                return
            case .ended, .disconnected:
                drainSync()
                sourceEnding = event
                return
            }
            release(released)
            statistics.syncStatistics = sync.statistics
            guard let pair else { continue }
            if showsCameraDirectly {
                source.releaseDepth(slot: pair.depthSlot)
                if submitDirect(colorSlot: pair.colorSlot, stamp: FrameStamp(nanoseconds: pair.captureNanoseconds, sequence: 0)) {
                    continue
                }
                // A composed frame or a flip is still ahead of it: newest wins, this one is dropped.
                source.releaseColor(slot: pair.colorSlot)
                statistics.droppedLate += 1
                continue
            }
            if handOff(pair) { continue }
            switch pacing {
            case .lockstep:
                heldPair = pair
                return
            case .live:
                source.releaseColor(slot: pair.colorSlot)
                source.releaseDepth(slot: pair.depthSlot)
                statistics.droppedLate += 1
            }
        }
    }

    /// Hands `pair` to compute with a free output slot; false when compute is busy or no slot is free.
    private func handOff(_ pair: SyncPair) -> Bool {
        guard !jobInFlight, let slot = scanout.take() else { return false }
        let now = MonotonicClock.nowNanoseconds()
        statistics.sync.record(nanoseconds: now > pair.captureNanoseconds ? now - pair.captureNanoseconds : 0)
        let job = FrameJob(colorSlot: pair.colorSlot, depthSlot: pair.depthSlot, outputSlot: slot,
                           color: source.colorView(slot: pair.colorSlot), depth: source.depthView(slot: pair.depthSlot),
                           output: sink.outputView(slot: slot), depthUnitMM: source.depthUnitMM,
                           stamp: FrameStamp(nanoseconds: pair.captureNanoseconds, sequence: UInt32(truncatingIfNeeded: pairsHandedOff)),
                           generation: generation)
        let accepted = jobs.put(job)
        precondition(accepted, "a job was handed off while compute held one")
        jobInFlight = true
        pairsHandedOff += 1
        jobReady.semaphore.post()
        return true
    }

    private func drainSync() {
        released.removeAll()
        sync.drain(into: &released)
        release(released)
    }

    private func release(_ released: SlotList) {
        for index in 0..<released.colorCount { source.releaseColor(slot: released.color(index)) }
        for index in 0..<released.depthCount { source.releaseDepth(slot: released.depth(index)) }
    }

    // MARK: Compute thread

    private func computeLoop() {
        var applied: UInt64 = 0
        while true {
            jobReady.semaphore.wait()
            if stopping.load(ordering: .acquiring) { return }
            guard let job = jobs.take() else { continue }
            if job.generation.number != applied {
                processor.apply(job.generation)
                applied = job.generation.number
            }
            let matteStart = MonotonicClock.nowNanoseconds()
            processor.buildMatte(depth: job.depth, unitMM: job.depthUnitMM, colour: job.color)
            afterMatteForTests?()
            // Stopped meanwhile: this frame will never be shown, so `stop` does not wait for its
            // compose too (half a frame less on a loaded board). No result: its slots are not
            // given back, the devices are closed next.
            if stopping.load(ordering: .acquiring) { return }
            let composeStart = MonotonicClock.nowNanoseconds()
            processor.compose(camera: job.color, background: job.generation.backdrop, into: job.output)
            let composeEnd = MonotonicClock.nowNanoseconds()
            let result = FrameResult(colorSlot: job.colorSlot, depthSlot: job.depthSlot, outputSlot: job.outputSlot,
                                     stamp: job.stamp, matteNanoseconds: composeStart - matteStart,
                                     composeNanoseconds: composeEnd - composeStart)
            let accepted = results.put(result)
            precondition(accepted, "compute finished a frame while the previous result was untaken")
            wake.signal()
        }
    }
}

/// The camera recheck's back-off bounds (see `PipelineRunner.recheckNanoseconds`).
enum SourceRecheck {
    static let firstNanoseconds: UInt64 = 20_000_000
    static let longestNanoseconds: UInt64 = 1_000_000_000
}
