import KernelIO

/// How long stopping took, step by step, from the stop signal to the devices closed, said in one
/// log line at exit: a stop slower than the service's budget (the e2e asks for 1 s) then says
/// what it waited on. CLOCK_MONOTONIC; I/O thread only; allocates, but only while stopping.
final class ShutdownSteps {
    private var started: UInt64 = 0
    private var steps: [(name: String, at: UInt64)] = []

    /// The stop signal arrived (later calls keep the first time).
    func begin() {
        if started == 0 { started = MonotonicClock.nowNanoseconds() }
    }

    /// `name` has finished now (ignored before `begin`).
    func mark(_ name: String) {
        guard started != 0 else { return }
        steps.append((name, MonotonicClock.nowNanoseconds()))
    }

    /// "stopped in 412 ms after the signal: compute 35, backdrop reader 0, ... (signal seen at
    /// 351.204 s, last step at 351.616 s)": each step's own milliseconds, and the two ends on
    /// CLOCK_MONOTONIC so a test can tell the signal's delivery and the process's exit apart from
    /// these. Nil when no stop signal came (a frame limit, a camera that ended).
    var summary: String? {
        guard started != 0, let last = steps.last else { return nil }
        var text = "stopped in \((last.at - started) / 1_000_000) ms after the signal:"
        var previous = started
        for (index, step) in steps.enumerated() {
            text += (index == 0 ? " " : ", ") + "\(step.name) \((step.at - previous) / 1_000_000)"
            previous = step.at
        }
        return text + " (signal seen at \(Self.seconds(started)) s, last step at \(Self.seconds(last.at)) s)"
    }

    /// Nanoseconds as seconds with three decimals (no Foundation formatting in the firmware).
    private static func seconds(_ nanoseconds: UInt64) -> String {
        let milliseconds = nanoseconds / 1_000_000
        let fraction = milliseconds % 1000
        return "\(milliseconds / 1000)." + (fraction < 10 ? "00" : fraction < 100 ? "0" : "") + "\(fraction)"
    }
}
