import CKernel
import Frames
import KernelIO

/// One V4L2 capture node, streaming into a fixed set of mmap buffers.
///
/// Open and allocate in `init` (format, frame rate and buffers negotiated once; what the driver
/// granted is in `granted`), then `start`. `dequeue` never blocks (the node is opened O_NONBLOCK):
/// the caller waits on the fd (`withDescriptor`) with poll or epoll. A dequeued slot belongs to
/// the caller until `release(slot:)`, which re-queues it. Timestamps are the buffer's
/// CLOCK_MONOTONIC kernel time when the driver says so, else the dequeue time on that clock.
///
/// ENODEV (unplug) turns the camera `disconnected` for good: the buffers stay mapped, so views
/// the pipeline still holds stay readable, until the owner drops this object and opens a new one.
/// Not thread-safe: one I/O thread owns it.
public final class V4L2Camera {
    public let path: String
    public let request: StreamRequest
    public let device: DeviceDescription
    public let granted: GrantedFormat
    /// What `view(slot:)` shows: the captured format, or what MJPEG is decoded into.
    public let deliveredFormat: PixelFormat
    public private(set) var state: CameraState = .stopped
    public private(set) var statistics = CaptureStatistics()
    /// Buffers the driver has to fill; 0 means every slot is with the caller.
    public private(set) var queuedCount = 0

    private var node: FileDescriptorBox?
    private var buffers: CaptureBuffers?
    private let decoder: MJPEGDecoder?
    private let converter: V4LConverter?
    private let decoded: DecodedFrames?
    private var held: [Bool]

    public init(path: String, request: StreamRequest) throws(CaptureError) {
        let raw = bk_v4l2_open(path)
        guard raw >= 0 else { throw DeviceProbe.openError(path) }
        let node = FileDescriptorBox(FileDescriptor(adopting: raw))
        let device = try DeviceProbe.describe(fd: raw, path: path)
        guard device.canStream else {
            throw .unsupported(path: path, reason: "not a video capture node with streaming I/O")
        }
        let format: CaptureFormat
        let negotiated: Negotiated
        if let native = request.chooseFormat(offered: device.formats) {
            format = native
            converter = nil
            negotiated = try Self.setFormat(fd: raw, path: path, format: format,
                                            delivered: format.delivered(mjpegDecodedTo: request.mjpegOutput), size: request.size)
        } else if request.role == .color, request.format == nil, device.offersConvertibleColor {
            format = .converted
            let converter = try V4LConverter(fd: raw, path: path, size: request.size)
            negotiated = Negotiated(size: converter.size, bytesPerRow: converter.sourceBytesPerRow,
                                    imageBytes: converter.sourceImageBytes)
            self.converter = converter
        } else {
            let wanted = request.format?.name ?? "any \(request.role.name) format"
            throw .unsupported(path: path, reason: "\(wanted) not offered; \(device.summary)")
        }
        let delivered = format.delivered(mjpegDecodedTo: request.mjpegOutput)
        let interval = Self.setFrameRate(fd: raw, framesPerSecond: request.framesPerSecond)
        let buffers = try CaptureBuffers(fd: raw, path: path, requested: request.bufferCount)
        if converter != nil {
            decoder = nil
            do throws(SystemError) {
                decoded = try DecodedFrames(format: delivered, size: negotiated.size, slots: buffers.count, packedRows: true)
            } catch {
                throw .system(error)
            }
        } else if format.isCompressed {
            decoder = try MJPEGDecoder(size: negotiated.size, output: delivered)
            do throws(SystemError) {
                decoded = try DecodedFrames(format: delivered, size: negotiated.size, slots: buffers.count)
            } catch {
                throw .system(error)
            }
        } else {
            decoder = nil
            decoded = nil
        }
        self.path = path
        self.request = request
        self.device = device
        self.deliveredFormat = delivered
        self.granted = GrantedFormat(format: format, size: negotiated.size, bytesPerRow: negotiated.bytesPerRow,
                                     imageBytes: negotiated.imageBytes, intervalNumerator: interval.numerator,
                                     intervalDenominator: interval.denominator, bufferCount: buffers.count,
                                     dmabufExported: buffers.allExported)
        self.held = [Bool](repeating: false, count: buffers.count)
        self.node = node
        self.buffers = buffers
    }

    deinit {
        if state == .streaming { stop() }
        // Unmap before the fd closes, so vb2 frees the buffers with the queue.
        buffers = nil
        node = nil
    }

    public var slotCount: Int { granted.bufferCount }

    /// "/dev/video0 (vivid, platform:vivid-000): YUYV 640x480 stride 1280, 30 fps, 4 mmap buffers (dmabuf)"
    public var summary: String {
        var text = "\(path) (\(device.card), \(device.busInfo)): \(granted.summary)"
        if decoder != nil { text += ", decoded to \(deliveredFormat.name)" }
        if let converter {
            text += ", \(CaptureFormat.fourCCText(converter.sourceFourCC)) converted to RGB24 by libv4lconvert (a CPU pass per frame)"
        }
        return text
    }

    /// Queues every buffer and starts streaming.
    public func start() throws(CaptureError) {
        guard state == .stopped, let fd = descriptor else { return }
        for slot in 0..<slotCount {
            held[slot] = false
            if let error = queue(slot, fd: fd) { throw failure("VIDIOC_QBUF", error) }
        }
        var type = Int32(BK_V4L2_BUF_TYPE_VIDEO_CAPTURE)
        if let error = V4L2Funnel.control(fd, BK_VIDIOC_STREAMON, &type) { throw failure("VIDIOC_STREAMON", error) }
        statistics.restart()
        state = .streaming
    }

    /// Stops streaming; the driver takes every buffer back, so every slot counts as released.
    public func stop() {
        guard state == .streaming, let fd = descriptor else { return }
        var type = Int32(BK_V4L2_BUF_TYPE_VIDEO_CAPTURE)
        if V4L2Funnel.control(fd, BK_VIDIOC_STREAMOFF, &type) == .noDevice {
            state = .disconnected
        } else {
            state = .stopped
        }
        queuedCount = 0
        for slot in 0..<slotCount { held[slot] = false }
    }

    /// Takes the oldest filled buffer without waiting. Buffers the driver flagged as corrupt and
    /// MJPEG frames that do not decode are re-queued and counted, never handed out.
    public func dequeue() -> DequeueOutcome {
        guard state == .streaming, let fd = descriptor, let buffers else {
            return state == .disconnected ? .disconnected : .empty
        }
        for _ in 0...slotCount {
            var buffer = v4l2_buffer()
            buffer.type = UInt32(BK_V4L2_BUF_TYPE_VIDEO_CAPTURE)
            buffer.memory = UInt32(BK_V4L2_MEMORY_MMAP)
            if let error = V4L2Funnel.control(fd, BK_VIDIOC_DQBUF, &buffer) {
                let outcome = DequeueOutcome.classify(error)
                if outcome == .disconnected { state = .disconnected }
                if case .failed(let errno) = outcome {
                    statistics.dequeueErrors += 1
                    statistics.lastDequeueError = errno
                }
                return outcome
            }
            queuedCount -= 1
            let slot = Int(buffer.index)
            guard slot < slotCount else { return .failed(.invalidArgument) }
            var usable = buffer.flags & UInt32(BK_V4L2_BUF_FLAG_ERROR) == 0
            if usable, let decoded {
                let length = min(Int(buffer.bytesused), buffers.lengths[slot])
                let frame = UnsafeRawBufferPointer(start: buffers.bases[slot], count: length)
                if let decoder {
                    usable = decoder.decode(frame, into: decoded.view(slot: slot))
                } else if let converter {
                    usable = converter.convert(frame, into: decoded.view(slot: slot))
                }
            }
            guard usable else {
                statistics.badFrames += 1
                if let error = queue(slot, fd: fd), DequeueOutcome.classify(error) == .disconnected {
                    state = .disconnected
                    return .disconnected
                }
                continue
            }
            let stamp = FrameStamp(nanoseconds: timestamp(of: buffer), sequence: buffer.sequence)
            statistics.record(stamp)
            held[slot] = true
            return .frame(slot: slot, stamp: stamp)
        }
        return .empty
    }

    /// Gives slot `slot` back to the driver. Releasing a slot the caller does not hold is ignored,
    /// so a release after `stop` or an unplug is harmless.
    public func release(slot: Int) {
        guard slot >= 0, slot < slotCount, held[slot] else { return }
        held[slot] = false
        guard state == .streaming, let fd = descriptor else { return }
        if let error = queue(slot, fd: fd), DequeueOutcome.classify(error) == .disconnected {
            state = .disconnected
        }
    }

    /// The image in slot `slot`; valid while this camera lives (the mapping outlasts an unplug).
    public func view(slot: Int) -> ImageView {
        precondition(slot >= 0 && slot < slotCount, "slot \(slot) out of range")
        if let decoded { return decoded.view(slot: slot) }
        return ImageView(format: deliveredFormat, size: granted.size, bytesPerRow: granted.bytesPerRow,
                         base: buffers!.bases[slot])
    }

    /// Lends the node's fd (for poll/epoll) for the duration of `body`.
    public func withDescriptor<R>(_ body: (Int32) -> R) -> R? {
        guard let node else { return nil }
        return node.descriptor.withRawValue(body)
    }

    /// Whether `view(slot:)` is the driver's own buffer, as a display scanning the buffer out
    /// would show it: false when frames are decoded or converted into buffers of our own.
    public var viewsDriverBuffers: Bool { decoded == nil }

    /// Lends slot `slot`'s exported dmabuf fd; nil where the driver refused VIDIOC_EXPBUF.
    public func withDMABuf<R>(slot: Int, _ body: (Int32) -> R) -> R? {
        guard let buffers, slot >= 0, slot < buffers.dmabufs.count, buffers.dmabufs[slot] >= 0 else { return nil }
        return body(buffers.dmabufs[slot])
    }

    private var descriptor: Int32? { node?.descriptor.withRawValue { $0 } }

    private func queue(_ slot: Int, fd: Int32) -> Errno? {
        var buffer = v4l2_buffer()
        buffer.index = UInt32(slot)
        buffer.type = UInt32(BK_V4L2_BUF_TYPE_VIDEO_CAPTURE)
        buffer.memory = UInt32(BK_V4L2_MEMORY_MMAP)
        let error = V4L2Funnel.control(fd, BK_VIDIOC_QBUF, &buffer)
        if error == nil { queuedCount += 1 }
        return error
    }

    private func timestamp(of buffer: v4l2_buffer) -> UInt64 {
        let clock = buffer.flags & UInt32(BK_V4L2_TIMESTAMP_MASK)
        let seconds = buffer.timestamp.tv_sec, micros = buffer.timestamp.tv_usec
        let now = MonotonicClock.nowNanoseconds()
        guard seconds >= 0, micros >= 0 else { return now }
        let stamp = UInt64(seconds) * 1_000_000_000 + UInt64(micros) * 1_000
        if clock == UInt32(BK_V4L2_TIMESTAMP_MONOTONIC) {
            statistics.kernelTimestamps = true
            return stamp
        }
        // A driver that names no clock may still stamp with CLOCK_MONOTONIC: v4l2loopback does
        // (ktime_get_ts64 at write time) but leaves the flag unset. A stamp from the last two
        // seconds of that clock is taken as such; it pairs colour with depth far better than the
        // dequeue time, which depends on when this thread got to each node.
        if clock == UInt32(BK_V4L2_TIMESTAMP_UNKNOWN), stamp <= now, now - stamp < 2_000_000_000 {
            return stamp
        }
        return now
    }

    private func failure(_ operation: String, _ error: Errno) -> CaptureError {
        if error == .noDevice {
            state = .disconnected
            return .disconnected(path: path)
        }
        return .system(SystemError("\(operation) \(path)", error))
    }

    private struct Negotiated {
        var size: FrameSize
        var bytesPerRow: Int
        var imageBytes: Int
    }

    private static func setFormat(fd: Int32, path: String, format: CaptureFormat, delivered: PixelFormat,
                                  size: FrameSize) throws(CaptureError) -> Negotiated {
        var request = v4l2_format.progressiveCapture(size: size, fourCC: format.v4l2FourCC)
        if let error = V4L2Funnel.control(fd, BK_VIDIOC_S_FMT, &request) {
            if error == .noDevice { throw .disconnected(path: path) }
            throw .system(SystemError("VIDIOC_S_FMT \(format.name) \(size.description) \(path)", error))
        }
        let pix = request.fmt.pix
        guard pix.pixelformat == format.v4l2FourCC else {
            throw .unsupported(path: path, reason: "asked for \(format.name), driver chose \(CaptureFormat.fourCCText(pix.pixelformat))")
        }
        guard pix.field == UInt32(BK_V4L2_FIELD_NONE) || pix.field == UInt32(BK_V4L2_FIELD_ANY) else {
            throw .unsupported(path: path, reason: "interlaced frames (field order \(pix.field)) are not supported")
        }
        let granted = FrameSize(width: Int(pix.width), height: Int(pix.height))
        guard delivered.accepts(granted) else {
            throw .unsupported(path: path, reason: "driver granted \(granted.description), which \(delivered.name) cannot hold")
        }
        if format.isCompressed {
            return Negotiated(size: granted, bytesPerRow: 0, imageBytes: Int(pix.sizeimage))
        }
        let minimum = delivered.minimumBytesPerRow(width: granted.width)
        let stride = pix.bytesperline == 0 ? minimum : Int(pix.bytesperline)
        guard stride >= minimum, Int(pix.sizeimage) >= delivered.byteCount(bytesPerRow: stride, height: granted.height) else {
            throw .unsupported(path: path, reason: "driver's stride \(pix.bytesperline) / image size \(pix.sizeimage) too small for \(granted.description)")
        }
        return Negotiated(size: granted, bytesPerRow: stride, imageBytes: Int(pix.sizeimage))
    }

    /// Asks for 1/fps seconds per frame where the driver lets us choose; returns the interval
    /// the driver then reports (0/0 when it reports none).
    private static func setFrameRate(fd: Int32, framesPerSecond: Int) -> (numerator: UInt32, denominator: UInt32) {
        var parameters = v4l2_streamparm()
        parameters.type = UInt32(BK_V4L2_BUF_TYPE_VIDEO_CAPTURE)
        guard V4L2Funnel.control(fd, BK_VIDIOC_G_PARM, &parameters) == nil else { return (0, 0) }
        if parameters.parm.capture.capability & UInt32(BK_V4L2_CAP_TIMEPERFRAME) != 0, framesPerSecond > 0 {
            parameters.parm.capture.timeperframe.numerator = 1
            parameters.parm.capture.timeperframe.denominator = UInt32(framesPerSecond)
            if V4L2Funnel.control(fd, BK_VIDIOC_S_PARM, &parameters) != nil {
                _ = V4L2Funnel.control(fd, BK_VIDIOC_G_PARM, &parameters)
            }
        }
        let interval = parameters.parm.capture.timeperframe
        return (interval.numerator, interval.denominator)
    }
}
