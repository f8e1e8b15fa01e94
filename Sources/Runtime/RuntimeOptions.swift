import KernelIO

/// What the environment may change of the booth at run time, read once in `main` and handed down,
/// so no other code of the product reads the environment. All but the board folder are hooks for
/// the end-to-end tests on the virtual board; on a real box none is set and every one is off.
public struct RuntimeOptions {
    /// $BACKDROP_BOARD_DIR: where board facts (board/<name>/...) are looked for first.
    public var boardDirectory: String? = nil
    /// $BACKDROP_TEST_REFUSE_SCALING: the display refuses the scaled camera layer as a driver that
    /// cannot scale would, so the fallback runs on a board that can.
    public var refuseScaling = false
    /// $BACKDROP_TEST_RENAME_DELAY_MS: every photo file waits this long, written and fsynced, under
    /// its temporary name (the window for killing the process mid-save).
    public var photoRenameDelayMS: Int32? = nil
    /// $BACKDROP_TEST_IMPORT_NOTICE_S, in nanoseconds: how long an import's outcome stays on screen
    /// instead of the booth's 6 s (a screen capture on the emulated board takes seconds).
    public var importNoticeNanoseconds: UInt64? = nil
    /// $BACKDROP_TEST_DISPLAY_AWAY_FILE: while this file exists the display reads as unplugged
    /// (vkms cannot unplug its connector).
    public var displayAwayFile: String? = nil

    /// Every hook off: what a real box runs with, and what tests start from.
    public init() {}

    /// Reads the variables; a malformed value is said and ignored (the hook stays off).
    public static func fromEnvironment() -> RuntimeOptions {
        fromVariables { ProcessArguments.environment($0) }
    }

    /// The same from any lookup (tests pass a dictionary's).
    public static func fromVariables(_ variable: (String) -> String?) -> RuntimeOptions {
        var options = RuntimeOptions()
        options.boardDirectory = variable("BACKDROP_BOARD_DIR")
        options.refuseScaling = variable("BACKDROP_TEST_REFUSE_SCALING") != nil
        if let text = variable("BACKDROP_TEST_RENAME_DELAY_MS"), let ms = Int32(text), ms > 0 {
            options.photoRenameDelayMS = ms
        }
        if let text = variable("BACKDROP_TEST_IMPORT_NOTICE_S") {
            if let seconds = UInt64(text), seconds > 0, seconds <= 3600 {
                options.importNoticeNanoseconds = seconds * 1_000_000_000
            } else {
                Log.warning("BACKDROP_TEST_IMPORT_NOTICE_S=\(text): not a number of seconds 1..3600; ignored")
            }
        }
        if let path = variable("BACKDROP_TEST_DISPLAY_AWAY_FILE"), !path.isEmpty { options.displayAwayFile = path }
        return options
    }
}
