import KernelIO

/// $BACKDROP_TEST_IMPORT_NOTICE_S, for the USB import's board test only (unset on a real box):
/// how long an import's outcome stays on screen instead of the booth's 6 s. A screen capture on
/// the emulated board takes seconds, and the first one after the SIGHUP may carry a frame that was
/// composed before the notice was published; with the notice held, the next capture still finds
/// it, so whether a capture shows it no longer depends on how fast the loaded board is.
enum ImportNoticeHold {
    static func fromEnvironment() -> UInt64? {
        guard let text = ProcessArguments.environment("BACKDROP_TEST_IMPORT_NOTICE_S") else { return nil }
        guard let seconds = UInt64(text), seconds > 0, seconds <= 3600 else {
            Log.warning("BACKDROP_TEST_IMPORT_NOTICE_S=\(text): not a number of seconds 1..3600; ignored")
            return nil
        }
        Log.warning("booth: an import's outcome stays \(seconds) s on screen (BACKDROP_TEST_IMPORT_NOTICE_S)")
        return seconds * 1_000_000_000
    }
}
