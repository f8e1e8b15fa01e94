import Runtime
import CKernel
import KernelIO

/// The one line a long command keeps redrawing on a terminal: frames done, the rate and the time
/// left ("render: 120/300 frames, 9.1 fps, 20 s left"). Nothing when stderr is not a terminal (a
/// log, a pipe) or with --quiet, so logs stay one line per event. Redrawn at most five times a
/// second, and erased before the command's own summary prints.
final class ProgressLine {
    private let label: String
    private let total: Int
    private let enabled: Bool
    private let started = MonotonicClock.nowNanoseconds()
    private var lastDrawn: UInt64 = 0
    private var drawn = false

    /// `total` 0: the end is unknown (counted without a time left).
    init(_ label: String, total: Int, quiet: Bool) {
        self.label = label
        self.total = total
        enabled = !quiet && bk_is_terminal(2) == 1
    }

    func update(done: Int, unit: String = "frames") {
        guard enabled else { return }
        let now = MonotonicClock.nowNanoseconds()
        // The first frame is drawn at once, so even a short run shows it has started.
        guard !drawn || now - lastDrawn >= 200_000_000 else { return }
        lastDrawn = now
        let seconds = Double(now - started) / 1e9
        var text = "\(label): \(done)" + (total > 0 ? "/\(total)" : "") + " \(unit)"
        if seconds > 0 && done > 0 {
            let rate = Double(done) / seconds
            let tenths = Int(rate * 10 + 0.5)
            text += ", \(tenths / 10).\(tenths % 10) " + (unit == "frames" ? "fps" : "per s")
            if total > done { text += ", \(Int(Double(total - done) / rate + 0.5)) s left" }
        }
        write("\r" + text + "\u{1B}[K")
        drawn = true
    }

    /// Erases the line, so what follows starts on a clean one.
    func finish() {
        guard drawn else { return }
        write("\r\u{1B}[K")
        drawn = false
    }

    private func write(_ text: String) {
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { _ = bk_write(2, $0.baseAddress, $0.count) }
    }
}
