import Frames

/// What to ask one node for. The driver may grant something else (another size, frame rate or
/// buffer count); `GrantedFormat` records what it did.
public struct StreamRequest: Equatable, Sendable {
    public var role: CameraRole
    public var size: FrameSize
    /// nil: the first format of the role's preference list the node offers.
    public var format: CaptureFormat?
    public var framesPerSecond: Int
    /// Driver buffers, allocated once. Four lets one frame be on screen, one composed and one
    /// captured while the driver still has one to fill.
    public var bufferCount: Int
    /// What MJPEG frames are decoded into: `.yuyv` (limited range, like uncompressed cameras
    /// deliver) or `.rgb24`.
    public var mjpegOutput: PixelFormat

    public init(role: CameraRole, size: FrameSize, format: CaptureFormat? = nil, framesPerSecond: Int = 30,
                bufferCount: Int = 4, mjpegOutput: PixelFormat = .yuyv) {
        self.role = role
        self.size = size
        self.format = format
        self.framesPerSecond = framesPerSecond
        self.bufferCount = bufferCount
        self.mjpegOutput = mjpegOutput
    }

    /// The format to negotiate given the fourccs a node lists; nil when nothing fits the role
    /// (or the configured format is not offered).
    public func chooseFormat(offered: [UInt32]) -> CaptureFormat? {
        let available = offered.compactMap { CaptureFormat.fromV4L2($0) }
        if let format {
            return role.formats.contains(format) && available.contains(format) ? format : nil
        }
        return role.formats.first { available.contains($0) }
    }
}
