/// What the loop must do, in the order given.
public enum BoothAction: Equatable, Sendable {
    /// Put `message` on screen. `until` is when the booth will replace or clear it (its deadline
    /// is armed for that); nil when it stays until the booth says otherwise.
    case showMessage(BoothMessage, until: UInt64?)
    case clearMessage
    /// Wake the booth (input `.timer`) at this CLOCK_MONOTONIC time; replaces any earlier one.
    case armDeadline(at: UInt64)
    case disarmDeadline
    /// Copy the first frame shown after this action (composed after any message change given
    /// before it) into the photo writer, then report `.frameCaptured` or `.photoFailed`.
    case captureShownFrame
    /// Encode and write the captured frame off the I/O thread; report `.photoSaved` or `.photoFailed`.
    case startEncode
    case switchBackdrop(BackdropStep)
    /// The next look of the cycle (a new generation, like a backdrop switch).
    case switchLook
    case setMatteView(Bool)
    /// Show the camera's picture as it is (no matte, no backdrop) over the whole screen, or the
    /// composite again. Never on together with the matte view: the booth turns one off first.
    case setCameraView(Bool)
    /// Make the previous generation current; report through the import inputs.
    case rollback
    /// The device is gone: reopen it with back-off until it is back (report `.deviceBack`).
    case startReopening(BoothDevice)
}
