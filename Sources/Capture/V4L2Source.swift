import CKernel
import Frames
import KernelIO

/// Colour and depth from two V4L2 nodes (a RealSense's, or vivid and loopback nodes on the
/// virtual board), as the pipeline's `FrameSource`. Slots are the driver's buffer indices; a
/// slot goes back to its driver only when the pipeline releases it.
///
/// Unplug: when either node fails with ENODEV, `nextEvent` answers `.disconnected` (at once the
/// first time, then after waiting out its time-out, so a loop that keeps asking does not spin).
/// The caller decides when to `reopen` (see `ReopenBackoff`). Called from one I/O thread only.
public final class V4L2Source: FrameSource {
    public let configuration: V4L2SourceConfiguration
    public let colorFormat: PixelFormat
    public let colorSize: FrameSize
    public let depthSize: FrameSize
    public let depthUnitMM: Float
    public let frameRate: Int
    /// A RealSense D4xx's factory calibration at the granted sizes, read when the nodes open (and
    /// again on `reopen`: a different camera may have been plugged in); nil otherwise.
    public private(set) var calibration: CameraCalibration?
    /// Why `calibration` is nil, or where it came from, in words for the start-up line.
    public private(set) var calibrationNote: String
    public private(set) var selection: CameraSelection
    public private(set) var color: V4L2Camera?
    public private(set) var depth: V4L2Camera?
    private var depthFirst = false
    private var disconnectReported = false

    /// Finds the nodes (`auto` or named), negotiates both streams, allocates their buffers and
    /// starts streaming.
    public init(configuration: V4L2SourceConfiguration) throws(CaptureError) {
        let (selection, color, depth) = try Self.open(configuration)
        self.configuration = configuration
        self.selection = selection
        self.color = color
        self.depth = depth
        colorFormat = color.deliveredFormat
        colorSize = color.granted.size
        depthSize = depth.granted.size
        frameRate = color.granted.framesPerSecond ?? configuration.colorRequest.framesPerSecond
        let read = Self.readCalibration(selection, depthSize: depth.granted.size, colorSize: color.granted.size)
        calibration = read.0
        calibrationNote = read.1
        if !configuration.depthUnitGiven, let model = selection.realSense {
            depthUnitMM = read.0?.depthUnitMM ?? model.defaultDepthUnitMM
        } else {
            depthUnitMM = configuration.depthUnitMM
        }
    }

    /// The camera's calibration, if it is a D4xx with a separate colour sensor and answers; never
    /// throws: a camera that cannot say leaves the choice to the config (see the note).
    static func readCalibration(_ selection: CameraSelection, depthSize: FrameSize,
                                colorSize: FrameSize) -> (CameraCalibration?, String) {
        guard let model = selection.realSense else { return (nil, "the camera is not a RealSense D4xx") }
        guard model.hasSeparateColourSensor else {
            return (nil, "a RealSense \(model.rawValue)'s colour comes from its depth imager")
        }
        do throws(CaptureError) {
            let replies = try HardwareMonitorChannel(path: selection.depthPath).readCalibration()
            do throws(CalibrationError) {
                let source = "RealSense \(model.rawValue) factory calibration (GETINTCAL on \(selection.depthPath))"
                let calibration = try replies.calibration(depthSize: depthSize, colorSize: colorSize, source: source)
                return (calibration, source)
            } catch {
                return (nil, "RealSense \(model.rawValue) calibration unusable: \(error.message)")
            }
        } catch {
            return (nil, "RealSense \(model.rawValue) calibration not read: \(error.message)")
        }
    }

    /// "capture: colour N frames, ...; depth N frames, ..." for the statistics report.
    public var statisticsSummary: String {
        "capture: colour \(color?.statistics.summary ?? "closed"); depth \(depth?.statistics.summary ?? "closed")"
    }

    public var isConnected: Bool { color?.state == .streaming && depth?.state == .streaming }

    /// "colour /dev/video0 (...): YUYV 640x480 ...; depth /dev/video1 (...): Z16 ...; depth ... offers Z16"
    public var summary: String {
        guard let color, let depth else { return "cameras closed (\(selection.reason))" }
        return "colour \(color.summary); depth \(depth.summary); \(selection.reason)"
    }

    /// Closes both nodes and opens them again, re-running discovery for `auto` (a replugged
    /// camera may come back under other node numbers). The caller must have released every
    /// slot it held. Throws, leaving the source disconnected, when the camera is not back yet or
    /// came back unable to deliver the formats and sizes the pipeline was built for.
    public func reopen() throws(CaptureError) {
        // Close first: an old fd keeps the dead node's number taken, and a named node could not
        // come back under its name.
        color = nil
        depth = nil
        let (selection, newColor, newDepth) = try Self.open(configuration)
        guard newColor.deliveredFormat == colorFormat, newColor.granted.size == colorSize,
              newDepth.granted.size == depthSize else {
            throw .unsupported(path: selection.colorPath,
                               reason: "camera came back as \(newColor.granted.summary) / \(newDepth.granted.summary)")
        }
        self.selection = selection
        color = newColor
        depth = newDepth
        disconnectReported = false
        (calibration, calibrationNote) = Self.readCalibration(selection, depthSize: depthSize, colorSize: colorSize)
    }

    public func colorView(slot: Int) -> ImageView { color!.view(slot: slot) }
    public func depthView(slot: Int) -> ImageView { depth!.view(slot: slot) }
    public func releaseColor(slot: Int) { color?.release(slot: slot) }
    public func releaseDepth(slot: Int) { depth?.release(slot: slot) }

    /// Lends both nodes' fds (-1 for a closed one) so an outside epoll loop can wait on them;
    /// wait for readability (EPOLLIN), then call `nextEvent(timeoutNanoseconds: 0)`.
    /// Frames are announced by the fds (see `withDescriptors`).
    public var nextFrameDueNanoseconds: UInt64? { nil }

    public func withDescriptors<R>(_ body: (_ color: Int32, _ depth: Int32) -> R) -> R {
        body(color?.withDescriptor { $0 } ?? -1, depth?.withDescriptor { $0 } ?? -1)
    }

    public func nextEvent(timeoutNanoseconds: UInt64) -> SourceEvent {
        guard let color, let depth, isConnected else { return disconnected(timeoutNanoseconds) }
        let deadline = MonotonicClock.nowNanoseconds() &+ timeoutNanoseconds
        // A node whose poll reports an error but has nothing to dequeue is left out for the rest
        // of this call, so a stuck POLLERR cannot turn the wait into a busy loop.
        var colorWaitable = true, depthWaitable = true
        depthFirst.toggle()
        while true {
            if let event = take(depthFirst ? depth : color, isDepth: depthFirst) { return event }
            if let event = take(depthFirst ? color : depth, isDepth: !depthFirst) { return event }
            let now = MonotonicClock.nowNanoseconds()
            guard now < deadline else { return .idle }
            // With no buffer queued the driver has nothing to fill (and vb2 may answer POLLERR).
            let colorFD = colorWaitable && color.queuedCount > 0 ? (color.withDescriptor { $0 } ?? -1) : -1
            let depthFD = depthWaitable && depth.queuedCount > 0 ? (depth.withDescriptor { $0 } ?? -1) : -1
            let remaining = deadline - now
            if colorFD < 0 && depthFD < 0 {
                MonotonicClock.sleep(nanoseconds: remaining)
                return .idle
            }
            let milliseconds = Int32(min((remaining + 999_999) / 1_000_000, UInt64(Int32.max)))
            var colorEvents: Int16 = 0, depthEvents: Int16 = 0
            let ready = bk_v4l2_poll_pair(colorFD, depthFD, Int16(BK_POLLIN), milliseconds, &colorEvents, &depthEvents)
            if ready < 0 {
                if Errno.current == .interrupted { continue }
                MonotonicClock.sleep(nanoseconds: remaining)
                return .idle
            }
            if ready == 0 { return .idle }
            let failure = Int16(BK_POLLERR | BK_POLLHUP | BK_POLLNVAL)
            if colorEvents & failure != 0 && colorEvents & Int16(BK_POLLIN) == 0 {
                if let event = take(color, isDepth: false) { return event }
                colorWaitable = false
            }
            if depthEvents & failure != 0 && depthEvents & Int16(BK_POLLIN) == 0 {
                if let event = take(depth, isDepth: true) { return event }
                depthWaitable = false
            }
        }
    }

    private func take(_ camera: V4L2Camera, isDepth: Bool) -> SourceEvent? {
        switch camera.dequeue() {
        case .frame(let slot, let stamp):
            return isDepth ? .depth(slot: slot, stamp: stamp) : .color(slot: slot, stamp: stamp)
        case .disconnected:
            return disconnected(0)
        case .empty, .failed:
            return nil
        }
    }

    private func disconnected(_ timeoutNanoseconds: UInt64) -> SourceEvent {
        if disconnectReported {
            if timeoutNanoseconds > 0 { MonotonicClock.sleep(nanoseconds: timeoutNanoseconds) }
        } else {
            disconnectReported = true
            // The surviving node would only fill buffers nobody takes.
            color?.stop()
            depth?.stop()
        }
        return .disconnected
    }

    private static func open(_ configuration: V4L2SourceConfiguration) throws(CaptureError) -> (CameraSelection, V4L2Camera, V4L2Camera) {
        let selection = try DeviceProbe.select(color: configuration.color, depth: configuration.depth,
                                               directory: configuration.deviceDirectory)
        var colorRequest = configuration.colorRequest
        colorRequest.role = .color
        var depthRequest = configuration.depthRequest
        depthRequest.role = .depth
        // A RealSense's own best sizes where the config left them to the camera.
        if selection.realSense != nil {
            if !configuration.depthSizeGiven { depthRequest.size = RealSenseModel.depthSize }
            if !configuration.colorSizeGiven { colorRequest.size = RealSenseModel.colorSize }
        }
        let color = try V4L2Camera(path: selection.colorPath, request: colorRequest)
        let depth = try V4L2Camera(path: selection.depthPath, request: depthRequest)
        try color.start()
        try depth.start()
        return (selection, color, depth)
    }
}
