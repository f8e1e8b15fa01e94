import Frames

/// `[camera]`: where colour and depth frames come from and how depth maps onto colour.
public struct CameraSettings: Equatable, Sendable {
    public enum Source: UInt8, Sendable, CaseIterable {
        /// Generated scenes with known ground truth; needs no hardware.
        case synthetic
        /// A recording directory (DESIGN.md "Recording layout").
        case recording
        /// Live V4L2 colour and depth nodes.
        case v4l2

        public var name: String {
            switch self {
            case .synthetic: return "synthetic"
            case .recording: return "recording"
            case .v4l2: return "v4l2"
            }
        }
    }

    /// What the colour node is asked to deliver. MJPEG is not a scanout or compose format, so it
    /// is kept apart from `PixelFormat`: it is decoded to one of those first.
    public enum ColorFormat: UInt8, Sendable, CaseIterable {
        case yuyv
        case nv12
        case mjpeg

        public var name: String {
            switch self {
            case .yuyv: return "yuyv"
            case .nv12: return "nv12"
            case .mjpeg: return "mjpeg"
            }
        }

        /// The uncompressed format, nil for MJPEG.
        public var pixelFormat: PixelFormat? {
            switch self {
            case .yuyv: return .yuyv
            case .nv12: return .nv12
            case .mjpeg: return nil
            }
        }
    }

    public var source: Source = .v4l2
    /// Recording directory; set whenever `source == .recording`.
    public var recording: String? = nil
    public var colorDevice: DeviceChoice = .auto
    public var depthDevice: DeviceChoice = .auto
    /// Capture size of both streams, pixels.
    public var size = FrameSize(width: 640, height: 480)
    public var fps: Int = 30
    public var colorFormat: ColorFormat = .yuyv
    /// Millimetres per depth unit (Z16 value 1 = this many mm).
    public var depthUnitMM: Double = 1.0
    /// True when the depth stream is already aligned pixel for pixel to the colour stream.
    public var registered: Bool = true
    /// Set together with `colorIntrinsics` whenever `registered` is false.
    public var depthIntrinsics: PinholeIntrinsics? = nil
    public var colorIntrinsics: PinholeIntrinsics? = nil
    public var depthToColor = DepthToColorOffset()

    public init() {}
}
