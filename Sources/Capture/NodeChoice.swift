/// A V4L2 node the config names, or `auto` to discover it. Device numbers change with probe order
/// between boots, so nothing defaults to /dev/video0.
public enum NodeChoice: Equatable, Sendable {
    case auto
    case path(String)

    public var description: String {
        switch self {
        case .auto: return "auto"
        case .path(let path): return path
        }
    }
}
