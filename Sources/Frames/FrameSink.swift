/// Where composed XRGB8888 frames go: a display, a file, or nowhere.
/// The sink owns its output slots; the pipeline composes into a free one and presents it.
public protocol FrameSink: ~Copyable {
    var outputSize: FrameSize { get }
    var slotCount: Int { get }
    var summary: String { get }
    func outputView(slot: Int) -> ImageView

    /// Shows or stores slot `slot`. Returns the CLOCK_MONOTONIC time the frame reached its
    /// destination (page-flip time for a display, write completion for files), or nil when the
    /// sink could not take it (the frame is dropped and counted by the caller).
    mutating func present(slot: Int, stamp: FrameStamp) -> UInt64?
    /// Flushes anything buffered; the last call before the sink is destroyed.
    mutating func finish() -> String?
}
