/// A device the config either names or leaves to discovery. Discovery matters because device
/// numbers (/dev/video2, /dev/dri/card1, gpiochip4) change with probe order between boots.
public enum DeviceChoice: Equatable, Sendable {
    case auto
    /// A device node path (/dev/video0, /dev/dri/card1) or, for GPIO chips, a chip label.
    case named(String)

    public var description: String {
        switch self {
        case .auto: return "auto"
        case .named(let name): return name
        }
    }
}
