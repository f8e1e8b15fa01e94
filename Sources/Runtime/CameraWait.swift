import Booth
import Capture
import Controls
import Import
import KernelIO

/// The runtime loop's state before the pipeline exists while the cameras are away: "NO CAMERA" on
/// screen, attempts on the back-off's deadlines, the reason said once per distinct failure
/// (CameraLink). Steady: STATUS says what the box waits for, the heartbeat feeds the watchdog.
/// Served meanwhile: TERM/INT end the wait; a SIGHUP shows the stick's new outcomes on screen in
/// place of the notice, each for as long as the booth would show it, and when one of them made a
/// new generation current (or none came) the reload stays pending for the live booth; USR1 says
/// the box waits; button presses are read and said, not acted on (a press made at a camera that
/// is not there must not start a countdown when it comes); USR2 stays pending.
enum CameraWait {
    static let noCamera = "NO CAMERA"

    /// The source `attempt` opened, or nil when a signal asked to stop first.
    /// `noticeHold`: how long an import's outcome stays on screen (nil: the booth's own times).
    static func open<Source, Screen: WaitScreen>(
        loop: RuntimeLoop, signals: borrowing SignalChannel, screen: Screen, notices: ImportNoticeWatch,
        noticeHold: UInt64?, _ attempt: () throws(CaptureError) -> Source
    ) -> Source? {
        var link = CameraLink(loop: loop.events)
        let messageEnd = loop.events.newDeadline()
        defer {
            loop.events.setDeadline(link.deadline, at: nil)
            loop.events.setDeadline(messageEnd, at: nil)
        }
        let booth = BoothConfiguration()
        var waiting: [(text: String, hold: UInt64)] = []
        var message: String? = nil
        var shown: String? = nil
        var carryReload = false
        while true {
            let now = MonotonicClock.nowNanoseconds()
            if link.isDue(now: now) {
                do throws(CaptureError) {
                    let source = try attempt()
                    screen.finish()
                    if carryReload { loop.deferReload() }
                    return source
                } catch {
                    link.failed(error, what: "camera", loop: loop.events)
                    loop.service.waiting(for: "the camera: \(error.message)")
                }
            }
            if loop.events.takeExpired(messageEnd, now: now) { message = nil }
            if message == nil, !waiting.isEmpty {
                let next = waiting.removeFirst()
                message = next.text
                loop.events.setDeadline(messageEnd, at: now + next.hold)
            }
            let wanted = message ?? noCamera
            if shown != wanted, screen.show(wanted) { shown = wanted }
            let ready = loop.next(signals, progress: 0, waitingForDevice: true)
            screen.serve(ready)
            if let signal = loop.stopSignal {
                Log.info("stopping on signal \(signal)")
                return nil
            }
            if loop.takeStatistics() { StandardOutput.line("waiting for the camera: no frames yet") }
            loop.pollButtons { intent, _ in Log.info("button: \(intent.name) ignored while waiting for the camera") }
            if loop.takeReload() {
                let news = notices.takeNew()
                for notice in news {
                    let hold = noticeHold ?? (notice.failed ? booth.failureNanoseconds : booth.importSummaryNanoseconds)
                    waiting.append((notice.text, hold))
                }
                if ImportNoticeSeen.reloads(after: news) {
                    carryReload = true
                    notices.carry(news)
                }
            }
        }
    }
}
