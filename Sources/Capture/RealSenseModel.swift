import Frames

/// The RealSense cameras Backdrop knows by USB id (vendor 8086), with what differs between them.
/// Ids from librealsense `src/ds/d400/d400-private.h`.
public enum RealSenseModel: String, Sendable, CaseIterable {
    case d415 = "D415"
    case d435 = "D435"
    case d435i = "D435i"
    case d455 = "D455"
    case d405 = "D405"

    public static let vendor: UInt16 = 0x8086

    public var productID: UInt16 {
        switch self {
        case .d415: return 0x0AD3
        case .d435: return 0x0B07
        case .d435i: return 0x0B3A
        case .d455: return 0x0B5C
        case .d405: return 0x0B5B
        }
    }

    public static func identify(vendor: UInt16, product: UInt16) -> RealSenseModel? {
        guard vendor == Self.vendor else { return nil }
        return allCases.first { $0.productID == product }
    }

    /// The stream sizes a booth wants from a D4xx: its depth camera's native 848x480 (the
    /// stereo matcher's best) and colour at 1280x720, both modes every D4xx offers at 30 fps.
    public static let depthSize = FrameSize(width: 848, height: 480)
    public static let colorSize = FrameSize(width: 1280, height: 720)

    /// Millimetres per depth unit out of the box, when the camera is not asked (GET_ADV): the
    /// D405 reports 0.1 mm units (librealsense d400-device.cpp), the others millimetres.
    public var defaultDepthUnitMM: Float { self == .d405 ? 0.1 : 1 }

    /// The D405's colour comes from its left imager through an ISP crop, and its colour table
    /// means something else (librealsense uses another function): not read as a D4xx colour table.
    public var hasSeparateColourSensor: Bool { self != .d405 }
}
