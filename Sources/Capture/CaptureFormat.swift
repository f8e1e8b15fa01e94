import Frames

/// The capture formats Capture negotiates, with their V4L2 fourcc and the `PixelFormat` the
/// pipeline receives. One table, so detection, negotiation and delivery never disagree.
public enum CaptureFormat: UInt8, Sendable, CaseIterable {
    case yuyv
    case nv12
    /// Motion JPEG: decoded with libturbojpeg before the pipeline sees it.
    case mjpeg
    /// Depth in 16-bit units (RealSense, our vivid patch).
    case z16
    /// 16-bit grey; what stock vivid offers and depth cameras without a Z16 fourcc deliver.
    case y16
    /// A colour format Backdrop does not read itself, converted to RGB24 by libv4lconvert
    /// (V4LConverter); never offered by a node under this name, never asked for by config.
    case converted

    public var name: String {
        switch self {
        case .yuyv: return "YUYV"
        case .nv12: return "NV12"
        case .mjpeg: return "MJPEG"
        case .z16: return "Z16"
        case .y16: return "Y16"
        case .converted: return "libv4lconvert"
        }
    }

    public var v4l2FourCC: UInt32 {
        switch self {
        case .yuyv: return fourCC("YUYV")
        case .nv12: return fourCC("NV12")
        case .mjpeg: return fourCC("MJPG")
        case .z16: return fourCC("Z16 ")
        case .y16: return fourCC("Y16 ")
        case .converted: return 0
        }
    }

    /// Maps a driver's fourcc onto the table; nil for formats Backdrop does not capture.
    /// V4L2 has two JPEG fourccs (MJPG, JPEG) for the same stream of baseline JPEG frames.
    public static func fromV4L2(_ code: UInt32) -> CaptureFormat? {
        if code == fourCC("JPEG") { return .mjpeg }
        for format in allCases where format != .converted && format.v4l2FourCC == code { return format }
        return nil
    }

    /// Parses a config or command-line name (case-insensitive): yuyv, nv12, mjpeg, z16, y16.
    public static func parse(_ text: String) -> CaptureFormat? {
        for format in allCases where format != .converted && asciiEqualIgnoringCase(format.name, text) { return format }
        return nil
    }

    // ASCII only: lowercased() would pull Unicode tables into the Embedded firmware.
    private static func asciiEqualIgnoringCase(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        for (left, right) in zip(a.utf8, b.utf8) where left | 0x20 != right | 0x20 { return false }
        return true
    }

    public var isDepth: Bool { self == .z16 || self == .y16 }
    public var isColor: Bool { !isDepth }
    public var isCompressed: Bool { self == .mjpeg }

    /// What the pipeline receives for this capture format. MJPEG is decoded into `decoded`
    /// (YUYV or RGB24); the others are handed over as the driver wrote them.
    public func delivered(mjpegDecodedTo decoded: PixelFormat = .yuyv) -> PixelFormat {
        switch self {
        case .yuyv: return .yuyv
        case .nv12: return .nv12
        case .mjpeg: return decoded
        case .z16, .y16: return .z16
        case .converted: return .rgb24
        }
    }

    /// The order `auto` tries colour formats in: uncompressed first (no decode cost), MJPEG last.
    public static let colorPreference: [CaptureFormat] = [.yuyv, .nv12, .mjpeg]
    /// Uncompressed colour formats libv4lconvert 1.22 converts (its supported_src_pixfmts, less
    /// the ones above and the vendor-specific compressed ones): a node offering only these is
    /// still a colour camera, read through V4LConverter.
    public static let convertibleColor: [UInt32] = [
        fourCC("UYVY"), fourCC("YVYU"), fourCC("YU12"), fourCC("YV12"), fourCC("NV21"), fourCC("NV16"),
        fourCC("NV61"), fourCC("RGB3"), fourCC("BGR3"), fourCC("RGBP"),
        fourCC("BA81"), fourCC("GBRG"), fourCC("GRBG"), fourCC("RGGB"),
    ]
    /// Depth: a real depth fourcc before 16-bit grey.
    public static let depthPreference: [CaptureFormat] = [.z16, .y16]

    /// Human-readable fourcc ("YUYV", "Z16 ") for messages about formats outside the table.
    public static func fourCCText(_ code: UInt32) -> String {
        var text = ""
        for shift in stride(from: 0, to: 32, by: 8) {
            let byte = UInt8(truncatingIfNeeded: code >> UInt32(shift))
            text.append(Character(Unicode.Scalar((byte >= 32 && byte < 127) ? byte : 63)))
        }
        return text
    }
}
