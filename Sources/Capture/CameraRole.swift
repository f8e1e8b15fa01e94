/// Which stream a node carries; decides the formats it may be asked for.
public enum CameraRole: UInt8, Sendable {
    case color
    case depth

    public var name: String { self == .color ? "colour" : "depth" }

    /// Formats this role may be negotiated in, most preferred first.
    public var formats: [CaptureFormat] {
        self == .color ? CaptureFormat.colorPreference : CaptureFormat.depthPreference
    }
}
