import Frames

/// `[output]`: where composed frames go.
public struct OutputSettings: Equatable, Sendable {
    public enum Sink: UInt8, Sendable, CaseIterable {
        /// Discard frames (benchmarks).
        case null
        /// Write a .y4m file or numbered PNGs into a directory.
        case file
        /// The display, through DRM/KMS.
        case kms

        public var name: String {
            switch self {
            case .null: return "null"
            case .file: return "file"
            case .kms: return "kms"
            }
        }
    }

    /// Where the alpha blend happens: in the CPU compose pass or in the display's plane hardware.
    public enum Blend: UInt8, Sendable, CaseIterable {
        case auto
        case cpu
        case plane

        public var name: String {
            switch self {
            case .auto: return "auto"
            case .cpu: return "cpu"
            case .plane: return "plane"
            }
        }
    }

    public var sink: Sink = .kms
    /// File sink target; set whenever `sink == .file`.
    public var path: String? = nil
    /// Frame size of the null and file sinks, pixels (the kms sink uses `mode`).
    public var size = FrameSize(width: 1280, height: 720)
    public var card: DeviceChoice = .auto
    /// Display mode; nil is `auto` (DisplayMode.choose: the native mode up to 1080p that fits).
    public var mode: FrameSize? = nil
    public var blend: Blend = .auto
    /// Capture each shown frame through the connector's writeback (photos of exactly what was seen).
    public var writeback: Bool = false

    public init() {}
}
