import CDRM
import Frames

/// drmModeAddFB2's four-plane arrays, filled for the layouts Backdrop scans out: one plane, or
/// NV12's chroma following its luma in the same buffer object at the same stride. One place for
/// the tuple-to-pointer dance that libdrm's C arrays need from Swift.
struct FramebufferPlanes {
    private var handles: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
    private var pitches: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
    private var offsets: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)

    /// `handle`'s rows `pitch` bytes apart from `offset`; for NV12 the chroma plane after the
    /// luma plane's `height` rows.
    init(handle: UInt32, pitch: UInt32, offset: UInt32 = 0, format: PixelFormat, height: Int) {
        handles.0 = handle
        pitches.0 = pitch
        offsets.0 = offset
        if format == .nv12 {
            handles.1 = handle
            pitches.1 = pitch
            offsets.1 = offset + pitch * UInt32(height)
        }
    }

    /// drmModeAddFB2 on `fd`: the new framebuffer's ID, or nil (errno says why).
    mutating func add(fd: Int32, size: FrameSize, fourCC: UInt32) -> UInt32? {
        var framebuffer: UInt32 = 0
        let added = withUnsafePointer(to: &handles) { h in
            withUnsafePointer(to: &pitches) { p in
                withUnsafePointer(to: &offsets) { o in
                    drmModeAddFB2(fd, UInt32(size.width), UInt32(size.height), fourCC,
                                  UnsafeRawPointer(h).assumingMemoryBound(to: UInt32.self),
                                  UnsafeRawPointer(p).assumingMemoryBound(to: UInt32.self),
                                  UnsafeRawPointer(o).assumingMemoryBound(to: UInt32.self), &framebuffer, 0)
                }
            }
        }
        return added == 0 ? framebuffer : nil
    }
}
