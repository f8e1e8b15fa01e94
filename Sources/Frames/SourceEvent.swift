/// What a source produced on one wait.
public enum SourceEvent: Equatable {
    case color(slot: Int, stamp: FrameStamp)
    case depth(slot: Int, stamp: FrameStamp)
    /// Nothing arrived in time; the caller decides whether that is a stall.
    case idle
    /// A finite source (recording, demo) has delivered its last frame.
    case ended
    /// The device went away (unplug); the source may come back after `reopen`.
    case disconnected
}
