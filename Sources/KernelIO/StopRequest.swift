import CKernel

/// A stop (SIGTERM, SIGINT) that a one-shot command answers at a point of its own choosing rather
/// than dying wherever the signal lands: `hold()` blocks both signals in the calling thread (and
/// every thread it starts later), after which they stay pending and `pending` says whether one
/// came. The command must then look at `pending` often and exit by itself; a holder that never
/// looks is still ended by the supervisor's SIGKILL after its stop timeout. No fd, no handler, no
/// state in the process beyond the signal mask, so `pending` may be read from any thread.
/// (The booth's long-running loop uses `SignalChannel` instead: it waits on its signals in epoll.)
public enum StopRequest {
    public static func hold() throws(SystemError) {
        guard bk_block_stop_signals() == 0 else { throw SystemError("blocking SIGTERM and SIGINT") }
    }

    /// "SIGTERM" or "SIGINT" when one is pending, nil otherwise.
    public static var pending: String? {
        switch bk_pending_stop_signal() {
        case Int32(BK_SIGTERM): return "SIGTERM"
        case Int32(BK_SIGINT): return "SIGINT"
        default: return nil
        }
    }
}
