/// Where composed XRGB8888 frames go: a display, a file, or nowhere.
/// The sink owns its output slots; the pipeline composes into a free one and presents it.
/// Called from one thread (the pipeline's I/O thread); `outputView` hands out a view the compute
/// thread may write while the pipeline says the slot is pending.
public protocol FrameSink: ~Copyable {
    var outputSize: FrameSize { get }
    var slotCount: Int { get }
    var summary: String { get }
    func outputView(slot: Int) -> ImageView

    /// Shows or stores slot `slot` and waits until it is done. Returns the CLOCK_MONOTONIC time
    /// the frame reached its destination (page-flip time for a display, write completion for
    /// files), or nil when the sink could not take it (the frame is dropped and counted by the
    /// caller).
    mutating func present(slot: Int, stamp: FrameStamp) -> UInt64?
    /// Flushes anything buffered; the last call before the sink is destroyed.
    mutating func finish() -> String?

    /// Hands `slot` over without waiting. A sink that finishes at once (files) answers `.shown`;
    /// a display answers `.queued` and reports the flip later through `takeCompletion`.
    mutating func submit(slot: Int, stamp: FrameStamp) -> SinkSubmission
    /// The next completed submission, if one completed (never blocks). Read it when the
    /// completion descriptor was readable.
    mutating func takeCompletion() -> SinkCompletion?
    /// Lends the fd that becomes readable when a submission completes (-1: completes at once).
    func withCompletionDescriptor<R>(_ body: (Int32) -> R) -> R
    /// The slot already on screen when the sink opened (a display's first modeset), if any.
    var initiallyShownSlot: Int? { get }

    /// Whether the sink can put the source's colour slots on screen as they are, without a copy
    /// (a display that scans the camera's own buffers out: zero-copy). False for every sink that
    /// only shows what was composed into its output slots.
    var showsCameraDirectly: Bool { get }
    /// Hands the source's colour slot `cameraSlot` to the display as it is, without waiting, as
    /// `submit` does an output slot. Its completion names it as `directSlot(cameraSlot)`; the
    /// caller must not give the camera slot back to the source until a later submission's
    /// completion says it left the screen (the display reads the camera's buffer until then).
    mutating func submitCamera(slot cameraSlot: Int, stamp: FrameStamp) -> SinkSubmission
}

/// What `FrameSink.submit` did with a slot.
public enum SinkSubmission: Equatable {
    /// Stored or shown at this CLOCK_MONOTONIC time; the slot is the one on screen now.
    case shown(at: UInt64)
    /// Handed to the display; a `SinkCompletion` follows.
    case queued
    /// Not taken (display away, a flip still queued): the frame is dropped.
    case refused
}

/// A queued submission that reached the screen.
public struct SinkCompletion: Equatable {
    public let slot: Int
    public let nanoseconds: UInt64
    public init(slot: Int, nanoseconds: UInt64) {
        self.slot = slot
        self.nanoseconds = nanoseconds
    }
}

/// Sinks that finish every frame inside `present` (files, null) get the asynchronous half for free.
extension FrameSink where Self: ~Copyable {
    public mutating func submit(slot: Int, stamp: FrameStamp) -> SinkSubmission {
        if let time = present(slot: slot, stamp: stamp) { return .shown(at: time) }
        return .refused
    }
    public mutating func takeCompletion() -> SinkCompletion? { nil }
    public func withCompletionDescriptor<R>(_ body: (Int32) -> R) -> R { body(-1) }
    public var initiallyShownSlot: Int? { nil }
    public var showsCameraDirectly: Bool { false }
    public mutating func submitCamera(slot cameraSlot: Int, stamp: FrameStamp) -> SinkSubmission { .refused }
}

extension FrameSink where Self: ~Copyable {
    /// The scanout index of camera slot `cameraSlot` shown directly: past the output slots, so
    /// one `ScanoutQueue` tracks both (it never gives such an index out to compose into).
    public func directSlot(_ cameraSlot: Int) -> Int { slotCount + cameraSlot }
}
