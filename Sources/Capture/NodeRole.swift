/// What a camera's node streams, as its USB streaming interface names it in sysfs
/// (`device/interface`). The card name cannot tell: uvcvideo cuts it to 31 bytes, and on a
/// RealSense every node's reads "Intel(R) RealSense(TM) Depth Ca". The interface names end in the
/// stream: "Intel(R) RealSense(TM) Depth Camera 435 Depth", "... RGB".
public enum NodeRole: String, Sendable, Equatable {
    case depth
    case infrared
    case color = "colour"
    /// A metadata node (V4L2_CAP_META_CAPTURE): frames' side data, never pixels.
    case metadata
    /// The interface says nothing Backdrop recognises (or there is none: vivid, v4l2loopback).
    case unknown

    /// The role the interface name's last word gives; the whole name's case does not matter.
    /// Only the last word counts: every RealSense interface name contains "Depth" (the product
    /// line's), the colour one's included.
    public static func named(_ interface: String) -> NodeRole {
        let words = interface.lowercased().split(separator: " ")
        guard let last = words.last else { return .unknown }
        switch last {
        case "depth": return .depth
        case "ir", "infrared", "left", "right": return .infrared
        case "rgb", "color", "colour": return .color
        default: return .unknown
        }
    }
}
