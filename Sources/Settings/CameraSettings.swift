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
        /// The first the node offers of YUYV, NV12, MJPEG, else libv4lconvert's output (UYVY,
        /// Bayer and the rest), which Capture says at start-up.
        case auto
        case yuyv
        case nv12
        case mjpeg

        public var name: String {
            switch self {
            case .auto: return "auto"
            case .yuyv: return "yuyv"
            case .nv12: return "nv12"
            case .mjpeg: return "mjpeg"
            }
        }

        /// The uncompressed format, nil for MJPEG and auto.
        public var pixelFormat: PixelFormat? {
            switch self {
            case .auto: return nil
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
    /// Whether depth must be reprojected onto colour, and with what.
    public enum Registration: UInt8, Sendable {
        /// The camera says: a RealSense D4xx registers with its own factory calibration; depth and
        /// colour from one node are taken as aligned; otherwise the config's intrinsics if given,
        /// else unregistered with a start-up message.
        case auto
        /// Depth is aligned to colour pixel for pixel already.
        case registered
        /// Reproject with the config's intrinsics and offset (or the camera's where not typed).
        case unregistered
    }

    /// Capture size of both streams when `depthSize`/`colorSize` are auto on a camera that is not
    /// a RealSense, pixels.
    public var size = FrameSize(width: 640, height: 480)
    /// Each stream's own size; nil (auto): a RealSense D4xx's 848x480 depth and 1280x720 colour,
    /// else `size`.
    public var depthSize: FrameSize? = nil
    public var colorSize: FrameSize? = nil
    public var fps: Int = 30
    public var colorFormat: ColorFormat = .auto
    /// Millimetres per depth unit (Z16 value 1 = this many mm).
    public var depthUnitMM: Double = 1.0
    /// `depth_unit_mm` was typed: it wins over what the camera says (a D405's 0.1 mm).
    public var depthUnitTyped = false
    public var registration: Registration = .auto
    /// False only when `registered = false` was typed (for the checks that need intrinsics then,
    /// and recordings, which say true or false).
    public var registered: Bool {
        get { registration != .unregistered }
        set { registration = newValue ? .registered : .unregistered }
    }
    /// Set together with `colorIntrinsics` whenever `registered` is false.
    public var depthIntrinsics: PinholeIntrinsics? = nil
    public var colorIntrinsics: PinholeIntrinsics? = nil
    public var depthToColor = DepthToColorOffset()

    public init() {}
}
