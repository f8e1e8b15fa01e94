import Controls
import KernelIO

/// The buttons as the I/O thread sees them: the panel's fd in its epoll set, a timer for
/// `nextDeadline`, and intents out. Debounces in software only what the kernel did not.
///
/// Threading: I/O thread only. `emit` is called synchronously from `handleReadable`/`handleTimer`.
public final class ButtonInput {
    public let panel: ButtonPanel
    private var classifier: ButtonClassifier

    public init(panel: ButtonPanel, longPressMS: Int) {
        self.panel = panel
        classifier = ButtonClassifier(debounceMS: panel.softwareDebounceMS, longPressMS: longPressMS)
    }

    /// CLOCK_MONOTONIC time at which `handleTimer` must run next (a settling bounce or a `held`
    /// threshold), or nil when no timer is needed.
    public var nextDeadline: UInt64? { classifier.nextDeadline }

    /// Call when the panel's fd is readable. `gesture` sees every gesture (for feedback such as
    /// "held"); `intent` only those with a default meaning.
    public func handleReadable(gesture: (ButtonGesture) -> Void = { _ in },
                               intent: (ButtonIntent) -> Void) throws(ButtonError) {
        var edges: [ButtonEdge] = []
        try panel.readEdges { edges.append($0) }
        for edge in edges {
            classifier.handle(edge) { found in
                gesture(found)
                if let meaning = ButtonIntent.forGesture(found) { intent(meaning) }
            }
        }
    }

    /// Call when the timer for `nextDeadline` fires (or any time; it only acts on what is due).
    public func handleTimer(now: UInt64 = MonotonicClock.nowNanoseconds(),
                            gesture: (ButtonGesture) -> Void = { _ in }, intent: (ButtonIntent) -> Void) {
        classifier.advance(to: now) { found in
            gesture(found)
            if let meaning = ButtonIntent.forGesture(found) { intent(meaning) }
        }
    }
}
