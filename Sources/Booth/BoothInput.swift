import Controls

/// Something the loop observed. Each comes with the CLOCK_MONOTONIC time it happened (see
/// `BoothMachine.handle`); the booth has no clock of its own.
public enum BoothInput: Equatable, Sendable {
    case button(ButtonIntent)
    /// Go back to the previous generation of config and backdrops (the USB import's way back).
    case rollbackRequested
    case deviceLost(BoothDevice)
    case deviceBack(BoothDevice)
    /// The deadline the booth armed has passed. Any input advances the booth's time, so this
    /// one only says "nothing else happened".
    case timer
    /// The frame shown at zero is copied into the photo writer's buffer.
    case frameCaptured
    /// The photo writer's result: written under its final name, or not at all.
    case photoSaved
    case photoFailed(reason: String)
    /// A short text to show for a while and then take away (a reload's outcome: "12 BACKDROPS",
    /// or why the folder was refused); changes no state.
    case notice(String)
    /// The USB import (or a rollback) began, said something, or ended.
    case importStarted
    case importProgress(String)
    case importFinished(summary: String)
    case importFailed(reason: String)
    /// An import that ran in a process of its own (the stick's unit, `backdrop import`) ended: its
    /// outcome as it left it in the data folder (`ImportNotice`). Shown whatever the state (no
    /// `importStarted` came before it); changes no state.
    case importReported(String, failed: Bool)
}
