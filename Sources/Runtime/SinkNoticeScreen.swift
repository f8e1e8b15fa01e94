import Frames
import KernelIO
import Scanout

/// The camera wait's notice on the display before the pipeline exists: drawn into a slot nothing
/// shows and committed, its flip read when the display's fd wakes the loop. I/O thread only.
final class SinkNoticeScreen: WaitScreen {
    private let sink: KMSSink
    private let backdrop: ImageView
    private let layer: Bool
    private let events: EventLoop
    private let token: UInt64

    init(sink: KMSSink, backdrop: ImageView, layer: Bool, events: EventLoop) {
        self.sink = sink
        self.backdrop = backdrop
        self.layer = layer
        self.events = events
        token = events.newToken()
    }

    func show(_ text: String) -> Bool {
        let events = events, token = token
        sink.withCompletionDescriptor { fd in
            do throws(SystemError) { try events.watch(fd, token: token) } catch {}
        }
        guard let slot = (0..<sink.slotCount).first(where: { sink.queue.isFree($0) }) else { return false }
        NoticeScreen.draw(text, into: sink.outputView(slot: slot), backdrop: backdrop, layer: layer)
        return sink.submit(slot: slot, stamp: FrameStamp(nanoseconds: MonotonicClock.nowNanoseconds(), sequence: 0)) != .refused
    }

    func serve(_ ready: UInt64) {
        if ready & token != 0 { _ = sink.takeCompletion() }
    }

    func finish() {
        let events = events
        sink.withCompletionDescriptor { events.unwatch($0) }
        _ = sink.takeCompletion()
    }
}
