/// Where colour and depth frames come from: the synthetic scene, a recording, or V4L2 cameras.
/// The source owns its slots (for V4L2 they are the driver's mmap buffers); the pipeline borrows
/// a slot from the event that names it until it hands the slot back with `release`.
/// Called from the pipeline's I/O thread only.
public protocol FrameSource: ~Copyable {
    var colorFormat: PixelFormat { get }
    var colorSize: FrameSize { get }
    var depthSize: FrameSize { get }
    /// Millimetres per raw depth unit.
    var depthUnitMM: Float { get }
    /// Nominal frames per second, used for the default sync tolerance and pacing.
    var frameRate: Int { get }
    /// One line a person can read: what was opened and what it delivers.
    var summary: String { get }

    func colorView(slot: Int) -> ImageView
    func depthView(slot: Int) -> ImageView

    /// Blocks for at most `timeoutNanoseconds` for the next frame of either stream; 0 never sleeps.
    mutating func nextEvent(timeoutNanoseconds: UInt64) -> SourceEvent
    mutating func releaseColor(slot: Int)
    mutating func releaseDepth(slot: Int)

    /// When an outside event loop should next ask `nextEvent(timeoutNanoseconds: 0)`: nil means
    /// "when one of `withDescriptors`' fds is readable" (cameras), 0 means now, otherwise a
    /// CLOCK_MONOTONIC time (a paced synthetic or recorded source has no fd to wait on).
    var nextFrameDueNanoseconds: UInt64? { get }
    /// Lends the fds to wait on (-1 for none), for an outside epoll set.
    func withDescriptors<R>(_ body: (_ color: Int32, _ depth: Int32) -> R) -> R
}

/// Sources without fds are ready whenever asked (unpaced); paced ones say when.
extension FrameSource where Self: ~Copyable {
    public var nextFrameDueNanoseconds: UInt64? { 0 }
    public func withDescriptors<R>(_ body: (_ color: Int32, _ depth: Int32) -> R) -> R { body(-1, -1) }
}
