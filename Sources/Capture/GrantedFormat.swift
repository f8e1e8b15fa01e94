import Frames

/// What the driver granted after negotiation, exactly as it answered.
public struct GrantedFormat: Equatable, Sendable {
    public var format: CaptureFormat
    public var size: FrameSize
    /// The driver's stride; 0 for compressed formats.
    public var bytesPerRow: Int
    /// The driver's worst-case bytes per frame (for MJPEG: the largest compressed frame).
    public var imageBytes: Int
    /// Seconds per frame as numerator/denominator; 0/0 when the driver does not say.
    public var intervalNumerator: UInt32
    public var intervalDenominator: UInt32
    public var bufferCount: Int
    /// The buffers were exported as dmabuf fds (VIDIOC_EXPBUF), for later zero-copy import.
    public var dmabufExported: Bool

    public init(format: CaptureFormat, size: FrameSize, bytesPerRow: Int, imageBytes: Int,
                intervalNumerator: UInt32, intervalDenominator: UInt32, bufferCount: Int, dmabufExported: Bool) {
        self.format = format
        self.size = size
        self.bytesPerRow = bytesPerRow
        self.imageBytes = imageBytes
        self.intervalNumerator = intervalNumerator
        self.intervalDenominator = intervalDenominator
        self.bufferCount = bufferCount
        self.dmabufExported = dmabufExported
    }

    /// Frames per second rounded to the nearest integer; nil when the driver gave no interval.
    public var framesPerSecond: Int? {
        guard intervalNumerator > 0, intervalDenominator > 0 else { return nil }
        return Int((UInt64(intervalDenominator) + UInt64(intervalNumerator) / 2) / UInt64(intervalNumerator))
    }

    /// "YUYV 640x480 stride 1280, 30/1 fps, 4 mmap buffers (dmabuf)"
    public var summary: String {
        var text = "\(format.name) \(size.description)"
        if bytesPerRow > 0 { text += " stride \(bytesPerRow)" }
        if intervalNumerator > 0 {
            text += intervalNumerator == 1 ? ", \(intervalDenominator) fps" : ", \(intervalDenominator)/\(intervalNumerator) fps"
        } else {
            text += ", frame rate not reported"
        }
        text += ", \(bufferCount) mmap buffers"
        text += dmabufExported ? " (dmabuf)" : " (no dmabuf export)"
        return text
    }
}
