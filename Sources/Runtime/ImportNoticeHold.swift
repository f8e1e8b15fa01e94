import KernelIO

/// $BACKDROP_TEST_IMPORT_NOTICE_S, for the USB import's board test only (unset on a real box):
/// how long an import's outcome stays on screen instead of the booth's 6 s. A screen capture on
/// the emulated board takes seconds, and the first one after the SIGHUP may carry a frame that was
/// composed before the notice was published; with the notice held, the next capture still finds
/// it, so whether a capture shows it no longer depends on how fast the loaded board is.
enum ImportNoticeHold {
    /// The hold in nanoseconds, said once, or nil when the hook is off.
    static func from(_ options: RuntimeOptions) -> UInt64? {
        guard let hold = options.importNoticeNanoseconds else { return nil }
        Log.warning("booth: an import's outcome stays \(hold / 1_000_000_000) s on screen (BACKDROP_TEST_IMPORT_NOTICE_S)")
        return hold
    }
}
