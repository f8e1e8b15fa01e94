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

    /// Blocks for at most `timeoutNanoseconds` for the next frame of either stream.
    mutating func nextEvent(timeoutNanoseconds: UInt64) -> SourceEvent
    mutating func releaseColor(slot: Int)
    mutating func releaseDepth(slot: Int)
}
