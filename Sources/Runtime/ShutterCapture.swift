import Booth
import Capture
import Frames
import KernelIO
import Photos
import Pipeline
import Scanout

/// The booth's `captureShownFrame` and `startEncode` carried out: the photo is the first frame
/// composed after the booth's last message change before the capture (the countdown digits gone),
/// taken from the display's writeback where it has one (exactly what was shown, plane blending
/// included), else from the composed buffer; then encoded and written by the `PhotoWriter` on its
/// own thread. What happened comes back as booth inputs from `iterate`. Never waits: the frame,
/// the writeback's out-fence and the writer's result each arrive as a wake of the event loop.
/// I/O thread only.
final class ShutterCapture {
    /// Generous: the frame after the shutter and the fence after its flip both come seconds late
    /// on an emulated board on a loaded machine (flips measured at up to 2.5 s there); a camera
    /// that stalls meanwhile gets the photo refused.
    static let frameNanoseconds: UInt64 = 5_000_000_000

    private enum Phase {
        case idle
        /// Waiting for a frame composed after the capture began.
        case awaitingFrame
        /// The frame's commit carries the writeback; its fence is watched once it exists.
        case awaitingWriteback(capturedAt: UInt64)
        case encoding
    }

    private let writer: PhotoWriter?
    private let setupFailure: String
    private let resultWake: WakeSignal
    private let resultToken: UInt64
    private var writeback: WritebackWait
    private let deadline: EventLoop.DeadlineID
    private var phase = Phase.idle
    /// Set inside the runner's finished-frame call, handed to the booth by the next `iterate`.
    private var outcome: BoothInput? = nil

    /// `writer` nil: the photos folder could not be set up (`setupFailure` says why, on screen).
    init(writer: PhotoWriter?, resultWake: WakeSignal, setupFailure: String, loop: EventLoop) throws(SystemError) {
        self.writer = writer
        self.setupFailure = setupFailure
        self.resultWake = resultWake
        resultToken = loop.newToken()
        writeback = WritebackWait(loop: loop)
        deadline = loop.newDeadline()
        try resultWake.withRawValue { (fd) throws(SystemError) in try loop.watch(fd, token: resultToken) }
    }

    /// True from the capture's start until its frame is copied: the writeback is spoken for.
    var holdsWriteback: Bool {
        switch phase {
        case .awaitingFrame, .awaitingWriteback: return true
        case .idle, .encoding: return false
        }
    }

    /// The booth's `captureShownFrame`: frames handed off from now on were composed after the
    /// message change the booth emitted just before, so the first of them to finish is the photo.
    func begin(_ runner: PipelineRunner<V4L2Source, KMSSink>) {
        guard let writer else {
            outcome = .photoFailed(reason: setupFailure)
            return
        }
        guard case .idle = phase else {
            outcome = .photoFailed(reason: "THE LAST PHOTO IS STILL BEING SAVED")
            return
        }
        phase = .awaitingFrame
        runner.loop.setDeadline(deadline, at: MonotonicClock.nowNanoseconds() + Self.frameNanoseconds)
        let keepLayers = writer.layout.layers != nil
        runner.whenFrameFinished(from: runner.pairsHandedOff) { [self] frame, sink in
            let colour = keepLayers ? frame.color : nil, alpha = keepLayers ? frame.alpha : nil
            let depth = keepLayers ? frame.depth : nil
            // Armed now, the writeback rides on this frame's own commit, made right after this call.
            if sink.armWriteback() {
                writer.stageLayers(colour: colour, alpha: alpha, depth: depth)
                phase = .awaitingWriteback(capturedAt: frame.stamp.nanoseconds)
                return
            }
            // No writeback: the composed buffer. Where the display blends the camera layer over the
            // backdrop plane, that is the layer alone; the writer puts it over the backdrop.
            let captured: Bool
            if case .layerOverBackdrop = writer.layout.planes, let backdrop = sink.backdropView {
                captured = writer.stageLayers(colour: colour, alpha: alpha, depth: depth)
                    && writer.capture(layer: frame.output, over: backdrop, at: frame.stamp.nanoseconds)
            } else {
                captured = writer.capture(composite: frame.output, colour: colour, alpha: alpha, depth: depth,
                                          at: frame.stamp.nanoseconds)
            }
            if captured {
                outcome = .frameCaptured
            } else {
                fail(runner.loop, "THE LAST PHOTO IS STILL BEING SAVED")
            }
        }
    }

    /// The booth's `startEncode`.
    func startEncode() {
        guard let writer, writer.startEncode() else { return }
        phase = .encoding
    }

    /// Call after every wake of the loop: the captured frame, the writer's result, a give-up.
    func iterate(_ ready: UInt64, runner: PipelineRunner<V4L2Source, KMSSink>) -> BoothInput? {
        let loop = runner.loop
        if case .awaitingWriteback(let capturedAt) = phase {
            switch writeback.poll(ready, runner: runner) {
            case .failed(let error):
                writeback.drop(runner: runner)
                fail(loop, "CANNOT WAIT FOR THE DISPLAY: \(error.errno.description)")
                return takeOutcome()
            case .fenceWatched:
                // The fence signals after the flip: give it the same time again.
                loop.setDeadline(deadline, at: MonotonicClock.nowNanoseconds() + Self.frameNanoseconds)
            case .ready:
                let writer = writer
                let copied = writeback.take(runner: runner) { view in writer?.capture(composite: view, at: capturedAt) ?? false }
                if copied == true {
                    phase = .idle
                    loop.setDeadline(deadline, at: nil)
                    outcome = .frameCaptured
                } else {
                    fail(loop, "THE DISPLAY DID NOT DELIVER THE PICTURE")
                }
            case .waiting:
                break
            }
        }
        if ready & resultToken != 0 { resultWake.drain() }
        if case .encoding = phase, let result = writer?.takeResult() {
            phase = .idle
            switch result {
            case .saved(let name):
                Log.info("photo saved: \(writer?.directory ?? "")/\(name)")
                outcome = .photoSaved
            case .failed(let reason):
                Log.warning("photo not saved: \(reason)")
                outcome = .photoFailed(reason: reason)
            }
        }
        if loop.takeExpired(deadline, now: MonotonicClock.nowNanoseconds()) {
            switch phase {
            case .awaitingFrame:
                runner.cancelFinishedFrame()
                fail(loop, "NO FRAME FROM THE CAMERA")
            case .awaitingWriteback:
                writeback.drop(runner: runner)
                fail(loop, "THE DISPLAY DID NOT DELIVER THE PICTURE")
            case .idle, .encoding:
                break
            }
        }
        return takeOutcome()
    }

    private func fail(_ loop: EventLoop, _ reason: String) {
        phase = .idle
        loop.setDeadline(deadline, at: nil)
        Log.warning("photo not saved: \(reason)")
        outcome = .photoFailed(reason: reason)
    }

    private func takeOutcome() -> BoothInput? {
        let taken = outcome
        outcome = nil
        return taken
    }
}
