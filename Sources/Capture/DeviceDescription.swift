/// What one V4L2 node says about itself (VIDIOC_QUERYCAP and VIDIOC_ENUM_FMT), as plain data so
/// the choice of nodes can be made, and tested, without a device.
public struct DeviceDescription: Equatable, Sendable {
    public var path: String
    public var driver: String
    public var card: String
    /// Identifies the physical device: every node of one USB camera shares it.
    public var busInfo: String
    /// The node's device number (st_rdev), so a /dev/v4l/by-id link and the /dev/videoN it points
    /// at count as one node; 0 when unknown.
    public var deviceNumber: UInt64
    /// Single-planar video capture with streaming I/O (what Capture drives).
    public var canStream: Bool
    /// Capture fourccs the node lists, in the driver's order.
    public var formats: [UInt32]
    /// The USB interface's name and ids from sysfs (empty for non-USB nodes).
    public var identity: SysfsIdentity

    public init(path: String, driver: String = "", card: String = "", busInfo: String = "",
                deviceNumber: UInt64 = 0, canStream: Bool = true, formats: [UInt32],
                identity: SysfsIdentity = SysfsIdentity()) {
        self.identity = identity
        self.path = path
        self.driver = driver
        self.card = card
        self.busInfo = busInfo
        self.deviceNumber = deviceNumber
        self.canStream = canStream
        self.formats = formats
    }

    /// What the node streams: metadata when it cannot stream pixels, else what its interface's
    /// name says, else what its formats say (Z16 alone: depth).
    public var role: NodeRole {
        if !canStream { return .metadata }
        if namedRole != .unknown { return namedRole }
        if isDedicatedDepth { return .depth }
        return offersColor ? .color : .unknown
    }

    /// The role the USB interface's name gives alone (.unknown without one).
    public var namedRole: NodeRole { NodeRole.named(identity.interfaceName) }

    /// The RealSense model by USB id, nil for anything else.
    public var realSense: RealSenseModel? {
        RealSenseModel.identify(vendor: identity.vendorID, product: identity.productID)
    }

    public func isSameNode(as other: DeviceDescription) -> Bool {
        if deviceNumber != 0 && other.deviceNumber != 0 { return deviceNumber == other.deviceNumber }
        return path == other.path
    }

    /// "/dev/video0 (vivid, platform:vivid-000: YUYV Z16 ...)", for reports and errors.
    public var summary: String {
        var text = "\(path) (\(driver), \(busInfo):"
        for code in formats { text += " " + CaptureFormat.fourCCText(code) }
        return text + (canStream ? ")" : "; no streaming capture)")
    }

    public func offers(_ format: CaptureFormat) -> Bool {
        formats.contains { CaptureFormat.fromV4L2($0) == format }
    }

    public var offersDepth: Bool { canStream && CaptureFormat.depthPreference.contains { offers($0) } }
    public var offersColor: Bool { canStream && (offersNativeColor || offersConvertibleColor) }
    /// A colour format Backdrop reads itself (YUYV, NV12, MJPEG).
    public var offersNativeColor: Bool { CaptureFormat.colorPreference.contains { offers($0) } }
    /// Only through libv4lconvert (V4LConverter): none of the native ones, one it converts.
    public var offersConvertibleColor: Bool {
        !offersNativeColor && formats.contains { CaptureFormat.convertibleColor.contains($0) }
    }
    /// A depth node that offers no colour format: a RealSense depth node rather than a generic
    /// camera that happens to list 16-bit grey.
    public var isDedicatedDepth: Bool { offersDepth && !offersColor }
}
