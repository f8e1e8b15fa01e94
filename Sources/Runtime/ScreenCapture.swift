import Capture
import Frames
import KernelIO
import Photos
import Pipeline
import Scanout

/// SIGUSR2: a picture of what the display shows, as a JPEG in `directory` (the photo writer's
/// names), for a technician asking what the box shows and for the end-to-end test (countdown
/// digits, the matte view, the camera-away notice: screens the shutter does not photograph).
/// Taken from the writeback connector only: armed on the signal, carried by the next commit
/// (a frame, or the camera-away still drawn again), saved on a writer thread of its own made at
/// the first request (buffers of the display's size). Without writeback, or while a photo holds
/// the writeback, a request is refused with a log line. Never waits. I/O thread only.
final class ScreenCapture {
    static let giveUpNanoseconds: UInt64 = 5_000_000_000

    private let directory: String
    private let cpuMask: UInt64
    private let wake: WakeSignal
    private let resultToken: UInt64
    private var writeback: WritebackWait
    private let deadline: EventLoop.DeadlineID
    private var writer: PhotoWriter? = nil
    private var armed = false

    init(directory: String, cpuMask: UInt64, loop: EventLoop) throws(SystemError) {
        self.directory = directory
        self.cpuMask = cpuMask
        wake = try WakeSignal()
        resultToken = loop.newToken()
        writeback = WritebackWait(loop: loop)
        deadline = loop.newDeadline()
        try wake.withRawValue { (fd) throws(SystemError) in try loop.watch(fd, token: resultToken) }
    }

    /// Arms the writeback for the next commit. False when refused (said why).
    func request(_ runner: PipelineRunner<V4L2Source, KMSSink>, photoBusy: Bool) -> Bool {
        guard !armed, !photoBusy else {
            Log.warning("screen capture skipped: \(armed ? "one is under way" : "a photo holds the writeback")")
            return false
        }
        if writer == nil {
            let finished = wake
            do throws(PhotoError) {
                // Quality 100: a picture for judging what was on screen, text edges included.
                writer = try PhotoWriter(directory: directory, layout: PhotoLayout(compositeSize: runner.withSink { $0.outputSize }),
                                         quality: 100, cpuMask: cpuMask, notify: { finished.signal() })
            } catch {
                Log.warning("screen capture skipped: \(error.message)")
                return false
            }
        }
        guard runner.withSink({ $0.armWriteback() }) else {
            Log.warning("screen capture skipped: the display has no writeback ([output] writeback = true needs a driver with it)")
            return false
        }
        armed = true
        runner.loop.setDeadline(deadline, at: MonotonicClock.nowNanoseconds() + Self.giveUpNanoseconds)
        return true
    }

    /// Forgets an armed capture: a photo is about to take the writeback.
    func abandon(_ runner: PipelineRunner<V4L2Source, KMSSink>) {
        guard armed else { return }
        finish(runner)
        Log.warning("screen capture abandoned: a photo took the writeback")
    }

    /// Call after every wake of the loop.
    func iterate(_ ready: UInt64, runner: PipelineRunner<V4L2Source, KMSSink>) {
        let loop = runner.loop
        if armed {
            switch writeback.poll(ready, runner: runner) {
            case .failed(let error):
                Log.warning("screen capture skipped: \(error.message)")
                finish(runner)
            case .ready:
                let now = MonotonicClock.nowNanoseconds()
                let writer = writer
                let copied = writeback.take(runner: runner) { writer?.capture(composite: $0, at: now) ?? false }
                if copied == true { writer?.startEncode() } else { Log.warning("screen capture skipped: the writer is busy") }
                finish(runner)
            case .waiting, .fenceWatched:
                break
            }
        }
        if armed && loop.takeExpired(deadline, now: MonotonicClock.nowNanoseconds()) {
            Log.warning("screen capture skipped: the display did not deliver the picture")
            finish(runner)
        }
        if ready & resultToken != 0 {
            wake.drain()
            switch writer?.takeResult() {
            case .saved(let name)?: Log.info("screen saved: \(directory)/\(name)")
            case .failed(let reason)?: Log.warning("screen not saved: \(reason)")
            case nil: break
            }
        }
    }

    func stop() { writer?.stop() }

    /// The capture is over (taken or given up): its fence, if any is left, goes with it.
    private func finish(_ runner: PipelineRunner<V4L2Source, KMSSink>) {
        writeback.drop(runner: runner)
        armed = false
        runner.loop.setDeadline(deadline, at: nil)
    }
}
