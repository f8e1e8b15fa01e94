import Controls
import KernelIO

/// The three buttons as intents: GPIO edges from the panel through the classifier (debounce,
/// short/long/held). The booth's runtime loop polls it when its fd is readable or its deadline
/// is due; the device test drives the same type. Never blocks; never logs (a read that fails is
/// handed to the caller).
///
/// Threading: I/O thread only; intents are handed to `act` synchronously from `poll`.
public final class ButtonControls {
    public let panel: ButtonPanel
    private var classifier: ButtonClassifier

    public init(panel: ButtonPanel, longPressMS: Int) {
        self.panel = panel
        classifier = ButtonClassifier(debounceMS: panel.softwareDebounceMS, longPressMS: longPressMS)
    }

    /// Lends the panel's fd (readable while edges are queued) for the I/O thread's epoll set.
    public func withDescriptor<R, E: Error>(_ body: (Int32) throws(E) -> R) throws(E) -> R {
        var result: Result<R, E>? = nil
        panel.withDescriptor { fd in
            do throws(E) { result = .success(try body(fd)) } catch { result = .failure(error) }
        }
        return try result!.get()
    }

    /// Reads what the buttons did when the panel's fd was `readable` (epoll said so), then lets
    /// the classifier see the time (a press held past the long-press time) and hands each intent,
    /// with how long its press lasted by the kernel's edge times, to `act`. A failed read goes
    /// to `failed`; the time is still seen. Never blocks.
    ///
    /// Every duration is the kernel's: edges carry their CLOCK_MONOTONIC event times, and the
    /// clock is read before the edges, so when a deadline (a held press, the rollback chord) is
    /// decided every edge that happened before that time has been read first, even one that
    /// queued after epoll_wait returned. A loop that wakes late cannot turn a short press into a
    /// long one.
    public func poll(readable: Bool, failed: (ButtonError) -> Void = { _ in }, _ act: (ButtonIntent, UInt64) -> Void) {
        let now = MonotonicClock.nowNanoseconds()
        let due = classifier.nextDeadline.map { $0 <= now } ?? false
        if readable || due {
            do throws(ButtonError) {
                try panel.readEdges { edge in
                    classifier.handle(edge) { gesture in
                        if let intent = ButtonIntent.forGesture(gesture) { act(intent, gesture.durationNanoseconds) }
                    }
                }
            } catch {
                failed(error)
            }
        }
        classifier.advance(to: now) { gesture in
            if let intent = ButtonIntent.forGesture(gesture) { act(intent, gesture.durationNanoseconds) }
        }
    }

    /// When the classifier next needs to see the time (debounce end, long press), for the loop's timer.
    public var nextDeadline: UInt64? { classifier.nextDeadline }
}
