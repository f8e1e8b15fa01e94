import CKernel
import Frames

extension v4l2_format {
    /// What both S_FMT callers ask a capture node for (V4L2Camera for the formats Backdrop decodes,
    /// V4LConverter for libv4lconvert's RGB24): progressive frames of one size and fourcc. Kept in
    /// one place so the two cannot drift apart in a field the driver then fills in differently.
    static func progressiveCapture(size: FrameSize, fourCC: UInt32) -> v4l2_format {
        var request = v4l2_format()
        request.type = UInt32(BK_V4L2_BUF_TYPE_VIDEO_CAPTURE)
        request.fmt.pix.width = UInt32(size.width)
        request.fmt.pix.height = UInt32(size.height)
        request.fmt.pix.pixelformat = fourCC
        request.fmt.pix.field = UInt32(BK_V4L2_FIELD_NONE)
        return request
    }
}
