import Capture
import Frames
import KernelIO
import Pipeline
import Scanout

/// The loop's side of one writeback capture, the same for the shutter's photo and for SIGUSR2's
/// picture of the screen: once the commit carrying the capture has made its out-fence, the fence
/// joins the loop under this token (the fd stays the display's: `KMSSink.watchWritebackFence`),
/// and when it has signalled the picture is lent once. I/O thread only.
struct WritebackWait {
    enum Progress {
        /// No fence yet, or it has not signalled.
        case waiting
        /// The fence joined the loop just now (the capture's commit was made).
        case fenceWatched
        /// The display has written the capture: `take` it.
        case ready
        case failed(SystemError)
    }

    let token: UInt64
    private var watched = false

    init(loop: EventLoop) { token = loop.newToken() }

    /// After every wake while a capture is armed: how far it is.
    mutating func poll(_ ready: UInt64, runner: PipelineRunner<V4L2Source, KMSSink>) -> Progress {
        if watched { return ready & token != 0 ? .ready : .waiting }
        let loop = runner.loop, token = token
        let outcome: Result<Bool, SystemError> = runner.withSink { sink in
            do throws(SystemError) { return .success(try sink.watchWritebackFence(in: loop, token: token)) } catch {
                return .failure(error)
            }
        }
        switch outcome {
        case .failure(let error): return .failed(error)
        case .success(let nowWatched):
            watched = nowWatched
            return nowWatched ? .fenceWatched : .waiting
        }
    }

    /// Lends the captured picture to `body` (nil when there is none); the display closes the fence.
    mutating func take<R>(runner: PipelineRunner<V4L2Source, KMSSink>, _ body: (ImageView) -> R) -> R? {
        watched = false
        return runner.withSink { $0.takeWriteback(body) }
    }

    /// Gives the capture up: disarmed, its fence out of the loop and closed.
    mutating func drop(runner: PipelineRunner<V4L2Source, KMSSink>) {
        watched = false
        runner.withSink { $0.dropWriteback() }
    }
}
