/// Every pixel format Backdrop handles, with its V4L2 and DRM fourccs and plane layout in one
/// table so capture, compose and scanout never disagree about a format.
public enum PixelFormat: UInt8, Sendable, CaseIterable {
    case yuyv
    case nv12
    case rgb24
    case xrgb8888
    case argb8888
    case z16
    case alpha8

    public var name: String {
        switch self {
        case .yuyv: return "YUYV"
        case .nv12: return "NV12"
        case .rgb24: return "RGB24"
        case .xrgb8888: return "XRGB8888"
        case .argb8888: return "ARGB8888"
        case .z16: return "Z16"
        case .alpha8: return "ALPHA8"
        }
    }

    /// V4L2 fourcc (videodev2.h), nil where V4L2 has no such capture format.
    public var v4l2FourCC: UInt32? {
        switch self {
        case .yuyv: return fourCC("YUYV")
        case .nv12: return fourCC("NV12")
        case .rgb24: return fourCC("RGB3")
        case .xrgb8888: return fourCC("XR24")
        case .argb8888: return fourCC("AR24")
        case .z16: return fourCC("Z16 ")
        case .alpha8: return fourCC("GREY")
        }
    }

    /// DRM fourcc (drm_fourcc.h), nil where the display cannot scan it out.
    public var drmFourCC: UInt32? {
        switch self {
        case .yuyv: return fourCC("YUYV")
        case .nv12: return fourCC("NV12")
        // DRM names packed formats by the little-endian word: BGR888 ("BG24", [23:0] B:G:R) is
        // R, G, B in memory, as V4L2's RGB3 is. ("RG24" would be B, G, R in memory.)
        case .rgb24: return fourCC("BG24")
        case .xrgb8888: return fourCC("XR24")
        case .argb8888: return fourCC("AR24")
        case .z16: return nil
        case .alpha8: return fourCC("R8  ")
        }
    }

    public static func fromV4L2(_ code: UInt32) -> PixelFormat? {
        for format in allCases where format.v4l2FourCC == code { return format }
        return nil
    }

    /// Bytes per pixel of the first plane (for NV12: the luma plane).
    public var bytesPerPixel: Int {
        switch self {
        case .yuyv, .z16: return 2
        case .nv12, .alpha8: return 1
        case .rgb24: return 3
        case .xrgb8888, .argb8888: return 4
        }
    }

    /// Minimum bytes per row of the first plane.
    public func minimumBytesPerRow(width: Int) -> Int { width * bytesPerPixel }

    /// Bytes of the whole image for a given first-plane stride. NV12's chroma plane follows the
    /// luma plane with the same stride and half the rows.
    public func byteCount(bytesPerRow: Int, height: Int) -> Int {
        switch self {
        case .nv12: return bytesPerRow * height + bytesPerRow * ((height + 1) / 2)
        default: return bytesPerRow * height
        }
    }

    /// Sizes a format cannot represent (YUYV and NV12 share chroma between pixel pairs).
    public func accepts(_ size: FrameSize) -> Bool {
        guard size.width > 0, size.height > 0 else { return false }
        switch self {
        case .yuyv: return size.width % 2 == 0
        case .nv12: return size.width % 2 == 0 && size.height % 2 == 0
        default: return true
        }
    }
}

/// Four ASCII characters packed little-endian, as both V4L2 and DRM define fourccs.
public func fourCC(_ text: StaticString) -> UInt32 {
    precondition(text.utf8CodeUnitCount == 4)
    let bytes = text.utf8Start
    return UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16 | UInt32(bytes[3]) << 24
}
