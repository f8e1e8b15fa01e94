import KernelIO

/// The signalfd as one token in the I/O thread's event loop: signals are read only when epoll
/// said the fd is readable, so handling them costs no extra wake-up or poll.
struct SignalWatch {
    let token: UInt64

    init(_ signals: borrowing SignalChannel, in loop: EventLoop) throws(CommandFailure) {
        let token = loop.newToken()
        do throws(SystemError) {
            try signals.withRawValue { (fd) throws(SystemError) in try loop.watch(fd, token: token) }
        } catch {
            throw .runtime("cannot set up the event loop: \(error.message)")
        }
        self.token = token
    }

    /// What arrived, when `ready` holds the token; nothing otherwise.
    func pending(_ ready: UInt64, _ signals: borrowing SignalChannel) -> PendingSignals {
        ready & token != 0 ? signals.drain() : PendingSignals()
    }
}
