import CKernel
import CV4LConvert
import Frames
import KernelIO

/// libv4lconvert's format conversion for a colour camera that offers none of YUYV, NV12 or MJPEG
/// (Backdrop reads those itself: no copy for the first two, libturbojpeg for the third). Many UVC
/// webcams and sensors offer only UYVY, planar YUV, RGB or Bayer; libv4lconvert (the conversion
/// libv4l2 applies for applications) turns each frame into RGB24, which compose and the matte take
/// as they do a recording's frames. It costs a pass over every frame on the capture thread, so
/// start-up says when it is in use (the camera's summary names it).
///
/// One per camera, made at open (libv4lconvert asks the node for its formats through the fd, with
/// plain ioctls rather than our funnel) and kept for the camera's life; its conversion buffers are
/// allocated by the library on the first frame and reused. Not thread-safe: the camera's thread.
final class V4LConverter {
    /// What the camera is set to (the driver's answer to VIDIOC_S_FMT with libv4lconvert's choice).
    let sourceFourCC: UInt32
    let size: FrameSize
    private let data: OpaquePointer
    private var source: v4l2_format
    private var destination: v4l2_format

    /// Asks libv4lconvert which of the node's formats it would convert to RGB24 at `size`, sets the
    /// node to it and keeps both formats for `convert`. Throws `.unsupported` when it has none.
    init(fd: Int32, path: String, size: FrameSize) throws(CaptureError) {
        guard let data = v4lconvert_create(fd) else {
            throw .unsupported(path: path, reason: "libv4lconvert cannot open the node")
        }
        var wanted = v4l2_format.progressiveCapture(size: size, fourCC: Self.rgb24)
        var source = v4l2_format()
        guard v4lconvert_try_format(data, &wanted, &source) == 0,
              wanted.fmt.pix.pixelformat == Self.rgb24,
              CaptureFormat.convertibleColor.contains(source.fmt.pix.pixelformat) else {
            v4lconvert_destroy(data)
            throw .unsupported(path: path, reason: "no colour format libv4lconvert can turn into RGB24")
        }
        if let error = V4L2Funnel.control(fd, BK_VIDIOC_S_FMT, &source) {
            v4lconvert_destroy(data)
            if error == .noDevice { throw .disconnected(path: path) }
            throw .system(SystemError("VIDIOC_S_FMT \(CaptureFormat.fourCCText(source.fmt.pix.pixelformat)) \(path)", error))
        }
        let granted = FrameSize(width: Int(source.fmt.pix.width), height: Int(source.fmt.pix.height))
        guard PixelFormat.rgb24.accepts(granted), source.fmt.pix.field == UInt32(BK_V4L2_FIELD_NONE) else {
            v4lconvert_destroy(data)
            throw .unsupported(path: path, reason: "driver granted \(granted.description) (field \(source.fmt.pix.field)) for conversion")
        }
        // The destination at the size granted, rows packed: libv4lconvert writes width * 3 bytes a row.
        wanted.fmt.pix.width = UInt32(granted.width)
        wanted.fmt.pix.height = UInt32(granted.height)
        wanted.fmt.pix.bytesperline = UInt32(granted.width * 3)
        wanted.fmt.pix.sizeimage = UInt32(granted.pixelCount * 3)
        self.data = data
        self.source = source
        self.destination = wanted
        self.sourceFourCC = source.fmt.pix.pixelformat
        self.size = granted
    }

    deinit { v4lconvert_destroy(data) }

    private static let rgb24 = fourCC("RGB3")

    /// The driver's stride and worst-case frame bytes for the source format.
    var sourceBytesPerRow: Int { Int(source.fmt.pix.bytesperline) }
    var sourceImageBytes: Int { Int(source.fmt.pix.sizeimage) }

    /// Converts one captured frame into `view` (RGB24 at `size`, rows packed). False when
    /// libv4lconvert refused the frame (short or corrupt): the camera counts it as bad.
    func convert(_ frame: UnsafeRawBufferPointer, into view: ImageView) -> Bool {
        guard let base = frame.baseAddress, view.bytesPerRow == size.width * 3 else { return false }
        let capacity = view.bytesPerRow * size.height
        let written = v4lconvert_convert(data, &source, &destination,
                                         UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: UInt8.self)),
                                         Int32(frame.count), view.base.assumingMemoryBound(to: UInt8.self), Int32(capacity))
        return written == Int32(capacity)
    }
}
