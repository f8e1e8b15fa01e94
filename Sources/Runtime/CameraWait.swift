import Capture
import Frames
import KernelIO
import Scanout

/// Opens the cameras before the pipeline exists, with "NO CAMERA" on screen while they are away:
/// attempts on the back-off's deadlines in the event loop, signals served meanwhile, the reason
/// said once per distinct failure (CameraLink).
enum CameraWait {
    /// The source, or nil when a signal asked to stop first.
    static func open(_ configuration: V4L2SourceConfiguration, sink: KMSSink, backdrop: ImageView, layer: Bool,
                     loop: EventLoop, signals: borrowing SignalChannel, watch: SignalWatch,
                     heartbeat: inout Heartbeat, service: ServiceLink) throws(CommandFailure) -> V4L2Source? {
        var link = CameraLink(loop: loop)
        defer { loop.setDeadline(link.deadline, at: nil) }
        let displayToken = loop.newToken()
        var noticeShown = false
        while true {
            if link.isDue(now: MonotonicClock.nowNanoseconds()) {
                do throws(CaptureError) {
                    let source = try V4L2Source(configuration: configuration)
                    sink.withCompletionDescriptor { loop.unwatch($0) }
                    _ = sink.takeCompletion()
                    return source
                } catch {
                    link.failed(error, what: "camera", loop: loop)
                    service.waiting(for: "the camera: \(error.message)")
                }
            }
            if !noticeShown {
                noticeShown = show(sink: sink, backdrop: backdrop, layer: layer)
                sink.withCompletionDescriptor { fd in
                    do throws(SystemError) { try loop.watch(fd, token: displayToken) } catch {}
                }
            }
            let ready = loop.wait()
            if heartbeat.iterate(loop: loop, progress: 0, waitingForDevice: true) { service.beat() }
            if ready & displayToken != 0 { _ = sink.takeCompletion() }
            if let signal = watch.pending(ready, signals).stop {
                Log.info("stopping on signal \(signal)")
                return nil
            }
        }
    }

    /// Draws the notice into a slot nothing shows and commits it (the flip is read in the loop).
    private static func show(sink: KMSSink, backdrop: ImageView, layer: Bool) -> Bool {
        guard let slot = (0..<sink.slotCount).first(where: { sink.queue.isFree($0) }) else { return false }
        NoticeScreen.draw("NO CAMERA", into: sink.outputView(slot: slot), backdrop: backdrop, layer: layer)
        return sink.submit(slot: slot, stamp: FrameStamp(nanoseconds: MonotonicClock.nowNanoseconds(), sequence: 0)) != .refused
    }
}
