import Backgrounds
import Booth
import Frames
import KernelIO
import Pipeline
import Settings

/// The backdrop set the box shows, stepped through by the buttons and replaced by a rescan of the
/// folder (SIGHUP). Everything slow runs on `BackdropWorker`'s thread, one job at a time: the
/// decode of a backdrop a press asked for and of its neighbours ahead of the next press, the
/// rescan, the rollback gesture's renames. Each result comes back through the loop's wake and is
/// published as a generation that compute takes at its next frame boundary, so neither a decode,
/// a load nor a switch ever holds the frame path. I/O thread only.
///
/// The generation carries a view into the library's memory (see `FrameGeneration`), so a replaced
/// library is kept until compute can no longer read it: once a frame handed off after the publish
/// exists, the frame before it (the last with the old view) has finished, because compute holds
/// one frame at a time. A rescan finished before that waits in its hand-off until then.
///
/// The same for every source and sink (`backdrop run` on the devices and on the synthetic scene
/// or a recording), so a SIGHUP means the same everywhere.
final class LiveBackdrops {
    private(set) var library: BackgroundLibrary
    private var retired: (library: BackgroundLibrary, untilHandedOff: Int)? = nil
    private let worker: BackdropWorker?
    /// Where the display composes the backdrop itself (its own plane), the new one is copied there
    /// too (nil: the CPU blend reads it from the generation only).
    private let plane: ((ImageView) -> Void)?
    /// Waiting for the worker, in this order: a task (the rollback), then decodes, then a rescan.
    private var waitingTask: (any BackdropTask)? = nil
    private var waitingRescan: BackdropWorker.Request? = nil
    private var rescanning = false
    private var finishedTask: (any BackdropTask)? = nil

    init(_ library: BackgroundLibrary, loop: EventLoop, cpuMask: UInt64, plane: ((ImageView) -> Void)? = nil) {
        self.library = library
        self.plane = plane
        do throws(SystemError) { worker = try BackdropWorker(loop: loop, cpuMask: cpuMask) } catch {
            Log.warning("backdrop worker not started (buttons switch backdrops on the I/O thread, SIGHUP reloads the "
                        + "config only): \(error.message)")
            worker = nil
        }
    }

    /// The backdrop a press asked for last (shown, or shown as soon as it is decoded).
    var currentName: String { library.targetName }

    /// A button's step through the set, shown from the next frame when it was decoded ahead, else
    /// once the worker has decoded it (the frames go on over the backdrop shown meanwhile).
    func step<Source: FrameSource & ~Copyable, Sink: FrameSink & ~Copyable>(
        _ step: BackdropStep, runner: PipelineRunner<Source, Sink>
    ) {
        guard worker != nil else {
            // No worker thread: the old way, the decode on this thread.
            if step == .next { library.next() } else { library.previous() }
            sayProblems()
            show(runner)
            return
        }
        if library.aim(step == .next ? 1 : -1, handedOff: runner.pairsHandedOff) { show(runner) }
        feedWorker(runner)
    }

    /// Starts loading `settings`' backdrop folder again; the result comes through `iterate`.
    /// Nil when started (or queued behind a decode), else what to show (a rescan already under way).
    func rescan(_ settings: Settings, outputSize: FrameSize) -> String? {
        guard worker != nil else { return "BACKDROPS NOT RESCANNED" }
        guard !rescanning && waitingRescan == nil else { return "STILL READING THE LAST BACKDROP FOLDER" }
        waitingRescan = BackdropWorker.Request(directory: settings.background.directory, outputSize: outputSize,
                                               fit: settings.background.fit)
        return nil
    }

    /// Runs `task` on the worker (after the job under way); `takeFinishedTask` returns it once
    /// run. False when there is no worker (the caller runs it itself) or a task is waiting already.
    func run<Source: FrameSource & ~Copyable, Sink: FrameSink & ~Copyable>(
        _ task: any BackdropTask, runner: PipelineRunner<Source, Sink>
    ) -> Bool {
        guard worker != nil, waitingTask == nil else { return false }
        waitingTask = task
        feedWorker(runner)
        return true
    }

    /// The task `run` was given, once it has run.
    func takeFinishedTask() -> (any BackdropTask)? {
        defer { finishedTask = nil }
        return finishedTask
    }

    /// Call after every wake of the loop. A finished decode may land the switch a press asked for;
    /// a finished rescan becomes the set on screen, unless it found no usable image (then the set
    /// shown stays); returns what to show about a rescan.
    func iterate<Source: FrameSource & ~Copyable, Sink: FrameSink & ~Copyable>(
        _ ready: UInt64, runner: PipelineRunner<Source, Sink>
    ) -> String? {
        if let retired, runner.pairsHandedOff >= retired.untilHandedOff { self.retired = nil }
        guard let worker else { return nil }
        // A rescanned set waits in the hand-off while the set before the last is still retired.
        var notice: String? = nil
        if !(rescanning && retired != nil), let result = worker.take(ready) {
            switch result {
            case .filled(let fill, let problem):
                if library.filled(fill, problem: problem, handedOff: runner.pairsHandedOff) { show(runner) }
                sayProblems()
            case .taskDone(let task):
                finishedTask = task
            case .rescanned(let rescanned, let skipped, let notices):
                rescanning = false
                notice = replace(by: rescanned, skipped: skipped, notices: notices, runner: runner)
            }
        }
        feedWorker(runner)
        return notice
    }

    /// `waiting: false` for the service's stop (a decode under way is left to the exit, see
    /// `BackdropWorker.stop`).
    func stop(waiting: Bool = true) { worker?.stop(waiting: waiting) }

    /// Starts the next job when the worker is free.
    private func feedWorker<Source: FrameSource & ~Copyable, Sink: FrameSink & ~Copyable>(_ runner: PipelineRunner<Source, Sink>) {
        guard let worker, worker.isIdle else { return }
        if let task = waitingTask {
            waitingTask = nil
            _ = worker.start(.task(task))
        } else if let fill = library.nextFill(handedOff: runner.pairsHandedOff) {
            _ = worker.start(.fill(fill))
        } else if var request = waitingRescan {
            waitingRescan = nil
            request.keepShown = library.targetName
            rescanning = true
            _ = worker.start(.rescan(request))
        }
    }

    private func replace<Source: FrameSource & ~Copyable, Sink: FrameSink & ~Copyable>(
        by rescanned: BackgroundLibrary?, skipped: [String], notices: [String], runner: PipelineRunner<Source, Sink>
    ) -> String {
        for line in skipped + notices { Log.warning(line) }
        guard let rescanned else {
            Log.warning("backdrop rescan failed; keeping the \(library.count) backdrop(s) shown")
            return "BACKDROPS NOT RESCANNED: KEPT THE LAST SET"
        }
        if rescanned.usesBuiltInDefault && !library.usesBuiltInDefault {
            Log.warning("backdrop rescan found no usable image; keeping the \(library.count) backdrop(s) shown")
            return "NO USABLE BACKDROP FOUND: KEPT THE LAST SET"
        }
        retired = (library, runner.pairsHandedOff + 1)
        library = rescanned
        show(runner)
        let count = library.usesBuiltInDefault ? 0 : library.count
        Log.info("backdrops rescanned: \(count) image(s), \(skipped.count) skipped")
        let skippedText = skipped.isEmpty ? "" : ", \(skipped.count) SKIPPED"
        return count == 1 ? "1 BACKDROP" + skippedText : "\(count) BACKDROPS" + skippedText
    }

    /// A file changed or removed since the load shows as the gradient; say which, once.
    private func sayProblems() {
        for problem in library.takeProblems() { Log.warning(problem) }
    }

    private func show<Source: FrameSource & ~Copyable, Sink: FrameSink & ~Copyable>(_ runner: PipelineRunner<Source, Sink>) {
        let backdrop = library.current
        runner.publish { $0.backdrop = backdrop }
        library.published(handedOff: runner.pairsHandedOff)
        // On screen already: a torn frame at the switch is accepted.
        plane?(backdrop)
    }
}
