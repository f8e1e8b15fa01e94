import Runtime
import KernelIO

/// Ctrl-C (SIGINT) or SIGTERM during an offline command (render, eval, record, demo): the signal
/// is held, the command looks between frames, finishes the frame in hand, writes what was done
/// (its summary, the contact sheet) and then exits 1, saying so.
enum Interruption {
    /// Blocks the stop signals in this thread and the threads it starts from now on.
    static func hold() {
        do throws(SystemError) { try StopRequest.hold() } catch {
            Log.warning("Ctrl-C ends this command wherever it lands: \(error.message)")
        }
    }

    /// The failure a stopped command ends with, after it wrote what it had.
    static func stopped(_ signal: String, done: Int, of total: Int) -> CommandFailure {
        .runtime("stopped by \(signal) after \(done) of \(total) frame" + (total == 1 ? "" : "s")
                 + "; what was done is written")
    }
}
