import Buttons
import Controls
import KernelIO
import Settings

/// The three buttons as intents: GPIO edges from the panel through the classifier (debounce,
/// short/long/held). Read by the I/O loop when its fd is readable; never blocks.
final class ButtonControls {
    private let panel: ButtonPanel
    private var classifier: ButtonClassifier

    /// Opens the lines `[buttons]` and board/<board>/buttons.conf name. A box whose buttons cannot
    /// be opened still runs: nil, with a warning that says what to fix.
    static func open(_ settings: ButtonSettings, boardDirectory: String?) -> ButtonControls? {
        var wiring = ButtonWiring()
        let boardFile = BoardDirectory.path(board: settings.board, file: "buttons.conf", override: boardDirectory)
        if let boardFile {
            do throws(SystemError) {
                let text = try WholeFile.text(boardFile)
                do throws(ButtonError) { wiring = try ButtonBoardFile.parse(text) } catch {
                    Log.warning("\(boardFile): \(error.message); buttons off")
                    return nil
                }
            } catch {
                Log.warning("cannot read \(boardFile): \(error.message); buttons off")
                return nil
            }
        }
        for (role, line) in [(ButtonRole.next, settings.next), (.previous, settings.previous), (.shutter, settings.shutter)] {
            guard let line else { continue }
            guard let address = ButtonLineAddress.parse(line) else {
                Log.warning("[buttons] \(role.name) = \(line): not a line name or chip:offset; buttons off")
                return nil
            }
            wiring.setLine(role, address)
        }
        do throws(ButtonError) {
            let panel = try ButtonPanel(wiring: wiring, debounceMS: settings.debounceMS)
            Log.info(panel.summary)
            return ButtonControls(panel: panel, settings: settings)
        } catch {
            Log.warning("buttons off: \(error.message) (check [buttons] in the config and board/\(settings.board)/buttons.conf)")
            return nil
        }
    }

    private init(panel: ButtonPanel, settings: ButtonSettings) {
        self.panel = panel
        classifier = ButtonClassifier(debounceMS: panel.softwareDebounceMS, longPressMS: settings.longPressMS)
    }

    /// Lends the panel's fd (readable while edges are queued) for the I/O thread's epoll set.
    func withDescriptor<R, E: Error>(_ body: (Int32) throws(E) -> R) throws(E) -> R {
        var result: Result<R, E>? = nil
        panel.withDescriptor { fd in
            do throws(E) { result = .success(try body(fd)) } catch { result = .failure(error) }
        }
        return try result!.get()
    }

    /// Reads what the buttons did when the panel's fd was `readable` (epoll said so), then lets
    /// the classifier see the time (a press held past the long-press time) and hands each intent,
    /// with how long its press lasted by the kernel's edge times, to `act`. Never blocks.
    ///
    /// Every duration is the kernel's: edges carry their CLOCK_MONOTONIC event times, and the
    /// clock is read before the edges, so when a deadline (a held press, the rollback chord) is
    /// decided every edge that happened before that time has been read first, even one that
    /// queued after epoll_wait returned. A loop that wakes late cannot turn a short press into a
    /// long one.
    func poll(readable: Bool, _ act: (ButtonIntent, UInt64) -> Void) {
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
                Log.warning("buttons: \(error.message)")
            }
        }
        classifier.advance(to: now) { gesture in
            if let intent = ButtonIntent.forGesture(gesture) { act(intent, gesture.durationNanoseconds) }
        }
    }

    /// When the classifier next needs to see the time (debounce end, long press), for the loop's timer.
    var nextDeadline: UInt64? { classifier.nextDeadline }
}
