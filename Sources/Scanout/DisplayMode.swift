import Frames
import CDRM

/// One display timing the connector offers. The raw drmModeModeInfo stays inside Scanout.
public struct DisplayMode {
    public let size: FrameSize
    public let refreshHz: Int
    public let name: String
    public let preferred: Bool
    let info: drmModeModeInfo

    init(_ info: drmModeModeInfo) {
        self.info = info
        size = FrameSize(width: Int(info.hdisplay), height: Int(info.vdisplay))
        refreshHz = Int(info.vrefresh)
        name = KMSProperties.string(info.name)
        preferred = info.type & UInt32(DRM_MODE_TYPE_PREFERRED) != 0
    }

    public var description: String { "\(size.description)@\(refreshHz)" }

    /// The configured size at its highest refresh rate when asked for and offered; else the
    /// preferred mode; else the first. Pure so the rule is testable without a display.
    public static func choose(_ modes: [DisplayMode], wanted: FrameSize?) -> DisplayMode? {
        if let wanted {
            var best: DisplayMode? = nil
            for mode in modes where mode.size == wanted {
                if best == nil || mode.refreshHz > best!.refreshHz { best = mode }
            }
            if let best { return best }
        }
        for mode in modes where mode.preferred { return mode }
        return modes.first
    }
}
