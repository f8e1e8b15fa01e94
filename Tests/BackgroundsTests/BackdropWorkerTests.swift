import Backgrounds
import Frames
import ImageCodec
import KernelIO
import TestSupport
import Testing

/// The backdrop worker: SIGHUP's folder rescan and a press's decode on its own thread, each result
/// back through the loop's wake, one job at a time (TSan runs this suite too: the hand-over is the
/// only thing shared).
@Suite struct BackdropWorkerTests {
    @Test func aRescanComesBackThroughTheLoopWithTheFolderAsItIsNow() throws {
        let directory = TemporaryDirectory("rescan")
        let red = BackgroundLibraryTests.solid(FrameSize(width: 64, height: 36), (255, 0, 0))
        try PNGEncoder.write(red.view, to: directory.file("a.png"))
        let loop = try EventLoop()
        let rescan = try BackdropWorker(loop: loop, cpuMask: 0)
        defer { rescan.stop() }
        let request = BackdropWorker.Request(directory: directory.path, outputSize: BackgroundLibraryTests.output, fit: .fill)
        #expect(rescan.take(0) == nil, "nothing before a job")
        #expect(rescan.start(.rescan(request)))
        #expect(!rescan.start(.rescan(request)), "one job at a time")
        var loaded = Self.rescanned(rescan, loop)
        #expect(loaded?.library?.count == 1)
        #expect(loaded?.library?.currentName == "a.png")
        #expect(loaded?.skipped == [])

        // The folder changed (an import switched it): the next rescan sees the new content.
        try PNGEncoder.write(red.view, to: directory.file("b.png"))
        _ = directory.write("c.png", [1, 2, 3])
        #expect(rescan.start(.rescan(request)))
        loaded = Self.rescanned(rescan, loop)
        #expect(loaded?.library?.count == 2)
        #expect(loaded?.skipped.count == 1)
    }

    @Test func aFolderWithNothingUsableComesBackAsTheBuiltInWithANotice() throws {
        let directory = TemporaryDirectory("rescan-empty")
        let loop = try EventLoop()
        let rescan = try BackdropWorker(loop: loop, cpuMask: 0)
        defer { rescan.stop() }
        #expect(rescan.start(.rescan(BackdropWorker.Request(directory: directory.path, outputSize: BackgroundLibraryTests.output, fit: .fill))))
        var loaded = Self.rescanned(rescan, loop)
        #expect(loaded?.library?.usesBuiltInDefault == true)
        #expect(loaded?.notices.count == 1)
    }

    typealias Loaded = (library: BackgroundLibrary?, skipped: [String], notices: [String])

    /// Waits on the loop for the worker's result, which must be a rescan.
    static func rescanned(_ worker: BackdropWorker, _ loop: EventLoop) -> Loaded? {
        var result = worker.take(loop.wait())
        while result == nil { result = worker.take(loop.wait()) }
        guard case .rescanned(let library, let skipped, let notices)? = result else { return nil }
        return (library, skipped, notices)
    }
}

/// A task (the rollback gesture's renames) on the backdrop worker: `start` returns while it runs,
/// so the loop that asked keeps going; its outcome comes back through the loop's wake.
@Suite struct BackdropWorkerTaskTests {
    final class HeldTask: BackdropTask, @unchecked Sendable {
        let release: SemaphoreBox
        // Written by the worker before it hands the task back, read after `take`.
        var ran = false
        init() throws { release = try SemaphoreBox() }
        func run() {
            release.semaphore.wait()
            ran = true
        }
    }

    final class SemaphoreBox: @unchecked Sendable {
        let semaphore: Semaphore
        init() throws { semaphore = try Semaphore() }
    }

    @Test func aTaskRunsOnTheWorkerAndComesBackThroughTheLoop() throws {
        let loop = try EventLoop()
        let worker = try BackdropWorker(loop: loop, cpuMask: 0)
        defer { worker.stop() }
        let task = try HeldTask()
        #expect(worker.start(.task(task)))
        // Still held by the test: had it run on this thread, `start` would not have returned.
        #expect(!worker.isIdle && worker.take(0) == nil)
        #expect(!worker.start(.task(task)), "one job at a time")
        task.release.semaphore.post()
        var result = worker.take(loop.wait())
        while result == nil { result = worker.take(loop.wait()) }
        guard case .taskDone(let done)? = result else { Issue.record("not a task's result"); return }
        #expect(done === task && task.ran)
        #expect(worker.isIdle)
    }

    /// The service's stop does not wait for a job under way (its budget is 1 s; a decode takes
    /// hundreds of ms on a loaded board): with the task held, `stop(waiting: false)` returns, and
    /// the worker starts nothing more; the job, let go afterwards, still finishes on memory it kept.
    @Test func theServicesStopLeavesAJobUnderWayToFinishOnItsOwn() throws {
        let loop = try EventLoop()
        let worker = try BackdropWorker(loop: loop, cpuMask: 0)
        let task = try HeldTask()
        #expect(worker.start(.task(task)))
        worker.stop(waiting: false)
        #expect(!worker.isIdle && !worker.start(.task(task)), "nothing starts after the stop")
        task.release.semaphore.post()
        var result = worker.take(loop.wait())
        while result == nil { result = worker.take(loop.wait()) }
        #expect(task.ran)
        // The process does not exit here: a waiting stop joins the thread and gives back the
        // reference the worker kept (LeakSanitizer in make sanitize-test checks it).
        worker.stop()
        #expect(!worker.isIdle)
    }

    /// Idle, even the service's stop joins the thread.
    @Test func anIdleWorkerStopsAtOnceEitherWay() throws {
        let loop = try EventLoop()
        let worker = try BackdropWorker(loop: loop, cpuMask: 0)
        worker.stop(waiting: false)
        #expect(!worker.isIdle)
        worker.stop()
    }
}
