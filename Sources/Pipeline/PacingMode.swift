/// What happens when a frame pair arrives while compute is still busy.
public enum PacingMode: Sendable {
    /// Live camera: the new pair is dropped and counted; latency stays fixed.
    case live
    /// Offline (demo, render, tests): the I/O thread waits, so every frame is processed and the
    /// output is the same on every machine.
    case lockstep
}
