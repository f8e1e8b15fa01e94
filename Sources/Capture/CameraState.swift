/// Where a camera is in its life. `disconnected` is sticky until the owner reopens the node.
public enum CameraState: UInt8, Sendable {
    /// Open and configured, buffers allocated, not streaming.
    case stopped
    case streaming
    /// The device answered ENODEV (or its queue failed): nothing more will arrive on this fd.
    case disconnected
}
