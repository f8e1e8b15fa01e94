import Capture
import Frames
import ImageCodec
import KernelIO
import Pipeline
import Scanout

/// A photo of exactly what the screen shows, into the photos folder. With writeback: armed on
/// the shutter, carried by the next commit, and saved when the capture's out-fence turns readable
/// in the event loop (never waited for). Without: the slot on screen, which the pipeline does not
/// draw into while it is shown. I/O thread only.
struct ScreenPhoto {
    /// A stalled camera brings no commit to carry the capture: show the last frame again after this.
    static let carryNanoseconds: UInt64 = 300_000_000
    /// Generous: the fence signals after the flip, which an emulated or busy board delays.
    static let fenceNanoseconds: UInt64 = 2_000_000_000

    private let token: UInt64
    private let deadline: EventLoop.DeadlineID
    private var armed = false
    private var armedPresented = 0
    private var fence: Int32 = -1
    private var carried = false

    init(loop: EventLoop) {
        token = loop.newToken()
        deadline = loop.newDeadline()
    }

    mutating func shutter(_ runner: PipelineRunner<V4L2Source, KMSSink>, directory: String) {
        if armed { return }
        if runner.withSink({ $0.armWriteback() }) {
            armed = true
            carried = false
            armedPresented = runner.presented
            runner.loop.setDeadline(deadline, at: MonotonicClock.nowNanoseconds() + Self.carryNanoseconds)
            return
        }
        guard let slot = runner.shownSlot else {
            Log.warning("photo not saved: nothing is on screen yet")
            return
        }
        let failure = runner.withSink { sink in Self.write(sink.outputView(slot: slot), directory: directory) }
        Self.report(failure)
    }

    /// Call on every iteration of the loop with the tokens that woke it.
    mutating func iterate(_ ready: UInt64, runner: PipelineRunner<V4L2Source, KMSSink>, directory: String) {
        guard armed else { return }
        let loop = runner.loop
        if fence < 0 {
            let pending = runner.withSink { sink in sink.withWritebackFence { $0 } }
            if pending >= 0 {
                do throws(SystemError) { try loop.watch(pending, token: token) } catch {
                    finish(loop, "cannot wait for the capture: \(error.message)")
                    return
                }
                fence = pending
                loop.setDeadline(deadline, at: MonotonicClock.nowNanoseconds() + Self.fenceNanoseconds)
            }
        }
        if fence >= 0 && ready & token != 0 {
            loop.unwatch(fence)
            fence = -1
            let failure = runner.withSink { sink in sink.takeWriteback { Self.write($0, directory: directory) } }
            finish(loop, failure ?? "the display did not deliver the capture")
            return
        }
        guard loop.takeExpired(deadline, now: MonotonicClock.nowNanoseconds()) else { return }
        if fence < 0 && !carried {
            // No commit has carried the capture yet: a stalled camera gets the last frame shown
            // again; frames still on their way (a slow board) get the time a fence would.
            carried = true
            if runner.presented == armedPresented, let shown = runner.shownSlot {
                let previous = runner.withSink { $0.outputView(slot: shown) }
                _ = runner.showStill({ NoticeScreen.copy(previous, into: $0) })
            }
            loop.setDeadline(deadline, at: MonotonicClock.nowNanoseconds() + Self.fenceNanoseconds)
            return
        }
        if fence >= 0 { loop.unwatch(fence) }
        fence = -1
        finish(loop, "the display did not deliver the capture")
    }

    private mutating func finish(_ loop: EventLoop, _ failure: String?) {
        armed = false
        loop.setDeadline(deadline, at: nil)
        Self.report(failure)
    }

    private static func report(_ failure: String?) {
        if let failure { Log.warning("photo not saved: \(failure)") }
    }

    /// PNG (lossless: exactly what was shown). Nil when written.
    private static func write(_ view: ImageView, directory: String) -> String? {
        do throws(CommandFailure) { try OutputDirectory.create(directory) } catch { return error.message }
        let path = directory + "/photo-" + "\(MonotonicClock.nowNanoseconds() / 1_000_000)" + ".png"
        do throws(ImageError) { try PNGEncoder.write(view, to: path) } catch { return error.message }
        Log.info("photo saved: \(path)")
        return nil
    }
}
