/// Where a device wait says what the box waits for: the display on the box (`SinkNoticeScreen`),
/// a recording fake in the tests. I/O thread only.
protocol WaitScreen: AnyObject {
    /// Draws `text` full screen and commits it. False when it cannot now (no free slot while a
    /// flip is still queued): the wait tries again on its next wake.
    func show(_ text: String) -> Bool
    /// The loop woke with `ready`: serves the screen's own events (the flip of the still).
    func serve(_ ready: UInt64)
    /// The wait is over: the screen's events leave the loop.
    func finish()
}
