import CKernel
import KernelIO

/// The I/O half of `HardwareMonitor`: one open depth node of a D4xx and its extension unit 3,
/// selector 1, reached with uvcvideo's UVCIOC_CTRL_QUERY through `V4L2Funnel` (so EINTR is
/// retried and tests can inject faults like for every other ioctl). Owns its descriptor. Used at
/// start-up and by `backdrop cameras`, never on the frame path: an exchange blocks in the USB
/// control transfer for a few milliseconds, and may sleep between retries.
public struct HardwareMonitorChannel: ~Copyable {
    public let path: String
    private let descriptor: FileDescriptor

    /// Opens `path` (the depth node). Opening does not touch the stream: V4L2 allows other opens.
    public init(path: String) throws(CaptureError) {
        let raw = bk_v4l2_open(path)
        guard raw >= 0 else { throw DeviceProbe.openError(path) }
        self.path = path
        descriptor = FileDescriptor(adopting: raw)
    }

    /// Tries after a busy or failed transfer (the camera may be finishing the previous command or
    /// settling after power-up); librealsense retries the same three errnos.
    static let attempts = 5
    static let retryPauseNanoseconds: UInt64 = 20_000_000

    /// Sends `command` (1024 bytes) with SET_CUR and reads the reply back with GET_CUR. ENOENT,
    /// EINVAL, ENOTTY or EPERM mean the node has no such unit (not a D4xx, or not uvcvideo):
    /// `.unsupported`, so the caller falls back to the config.
    public func exchange(_ command: [UInt8]) throws(CaptureError) -> [UInt8] {
        precondition(command.count == HardwareMonitor.bufferSize)
        var outgoing = command
        var reply = [UInt8](repeating: 0, count: HardwareMonitor.bufferSize)
        var attempt = 1
        while true {
            var failure: (call: String, errno: Errno)? = nil
            descriptor.withRawValue { fd in
                if let error = query(fd, UInt8(BK_UVC_SET_CUR), &outgoing) {
                    failure = ("SET_CUR", error)
                } else if let error = query(fd, UInt8(BK_UVC_GET_CUR), &reply) {
                    failure = ("GET_CUR", error)
                }
            }
            guard let failure else { return reply }
            let retriable = failure.errno == Errno(Int32(BK_EIO)) || failure.errno == .wouldBlock || failure.errno == .busy
            if retriable && attempt < Self.attempts {
                attempt += 1
                MonotonicClock.sleep(nanoseconds: Self.retryPauseNanoseconds)
                continue
            }
            if failure.errno == .noDevice { throw .disconnected(path: path) }
            let absent = [Errno.noSuchFile, .invalidArgument, Errno(Int32(BK_ENOTTY)), .notPermitted]
            if absent.contains(failure.errno) {
                throw .unsupported(path: path, reason: "no RealSense hardware monitor (extension unit 3 "
                                   + "\(failure.call): \(failure.errno.description))")
            }
            throw .system(SystemError("UVCIOC_CTRL_QUERY \(failure.call) \(path)", failure.errno))
        }
    }

    private func query(_ fd: Int32, _ request: UInt8, _ buffer: inout [UInt8]) -> Errno? {
        buffer.withUnsafeMutableBufferPointer { bytes in
            var query = uvc_xu_control_query(unit: HardwareMonitor.extensionUnit, selector: HardwareMonitor.selector,
                                             query: request, size: UInt16(bytes.count), data: bytes.baseAddress)
            return V4L2Funnel.control(fd, BK_UVCIOC_CTRL_QUERY, &query)
        }
    }

    /// The three calibration replies. A GET_ADV the firmware refuses (older firmware, or a camera
    /// without advanced mode) leaves the units out rather than failing the tables.
    public func readCalibration() throws(CaptureError) -> RealSenseReplies {
        let depth = try exchange(HardwareMonitor.command(.getIntCal, HardwareMonitor.Table.depth.rawValue))
        let colour = try exchange(HardwareMonitor.command(.getIntCal, HardwareMonitor.Table.color.rawValue))
        var units: [UInt8]? = nil
        do throws(CaptureError) {
            units = try exchange(HardwareMonitor.command(.getAdv, HardwareMonitor.depthTableControl))
        } catch {
            if error.isDisconnect { throw error }
        }
        return RealSenseReplies(depthTable: depth, colorTable: colour, depthUnits: units)
    }
}
