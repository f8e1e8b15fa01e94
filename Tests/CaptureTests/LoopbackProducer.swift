import CKernel
import Foundation
import Frames
import KernelIO
@testable import Capture

/// Feeds two v4l2loopback output nodes with known frames, like a RealSense's colour and depth
/// streams: frame n's colour luma at (x, y) is (x + 3y + n) mod 256 with chroma n mod 256, and its
/// depth at (x, y) is 500 + (x + 2y + n) mod 3000. A consumer recovers n from one pixel and
/// checks the rest. With `fixed`, the colour node instead carries that one frame (an MJPEG frame,
/// or UYVY for the libv4lconvert path) over and over, in its fourcc.
/// Runs on its own thread, one frame pair every 33 ms.
final class LoopbackProducer: @unchecked Sendable {
    let size: FrameSize
    let fixed: (fourCC: UInt32, bytes: [UInt8])?
    private let lock = NSLock()
    private var stopping = false
    private var thread: Thread?
    private let finished = DispatchSemaphore(value: 0)

    init(size: FrameSize, jpeg: [UInt8]? = nil) {
        self.size = size
        self.fixed = jpeg.map { (fourCC("MJPG"), $0) }
    }

    init(size: FrameSize, fixed fourCC: UInt32, frame: [UInt8]) {
        self.size = size
        self.fixed = (fourCC, frame)
    }

    static func loopbackOutputs() -> (color: String, depth: String)? {
        // The board creates them as video10 and video11 (vboard/guest-init).
        let color = "/dev/video10", depth = "/dev/video11"
        guard bk_v4l2_device_number(color) != 0, bk_v4l2_device_number(depth) != 0 else { return nil }
        return (color, depth)
    }

    /// A third loopback node for MJPEG: a loopback node keeps its first writer's format, so the
    /// MJPEG test cannot share the colour node (tests/vboard/capture-guest.sh creates video12).
    static func mjpegOutput() -> String? {
        bk_v4l2_device_number("/dev/video12") != 0 ? "/dev/video12" : nil
    }

    /// A fourth, for UYVY (a format only libv4lconvert reads here; capture-guest.sh creates video13).
    static func uyvyOutput() -> String? {
        bk_v4l2_device_number("/dev/video13") != 0 ? "/dev/video13" : nil
    }

    static func colorByte(x: Int, y: Int, frame: Int) -> UInt8 { UInt8(truncatingIfNeeded: x + 3 * y + frame) }
    static func depthValue(x: Int, y: Int, frame: Int) -> UInt16 { UInt16(500 + (x + 2 * y + frame) % 3000) }

    func start(color: String, depth: String?) throws {
        let size = self.size, fixed = self.fixed?.bytes
        let colorFD = try Self.openOutput(color, format: self.fixed?.fourCC ?? fourCC("YUYV"), size: size)
        let depthFD: Int32 = try depth.map { path throws in try Self.openOutput(path, format: fourCC("Z16 "), size: size) } ?? -1
        thread = Thread { [self] in
            var colorFrame = [UInt8](repeating: 0, count: size.pixelCount * 2)
            var depthFrame = [UInt16](repeating: 0, count: size.pixelCount)
            var frame = 0
            while !isStopping {
                for y in 0..<size.height {
                    for x in 0..<size.width {
                        colorFrame[(y * size.width + x) * 2] = Self.colorByte(x: x, y: y, frame: frame)
                        colorFrame[(y * size.width + x) * 2 + 1] = UInt8(truncatingIfNeeded: frame)
                        depthFrame[y * size.width + x] = Self.depthValue(x: x, y: y, frame: frame)
                    }
                }
                if let fixed {
                    _ = fixed.withUnsafeBytes { bk_write(colorFD, $0.baseAddress, $0.count) }
                } else {
                    _ = colorFrame.withUnsafeBytes { bk_write(colorFD, $0.baseAddress, $0.count) }
                }
                if depthFD >= 0 { _ = depthFrame.withUnsafeBytes { bk_write(depthFD, $0.baseAddress, $0.count) } }
                frame += 1
                Thread.sleep(forTimeInterval: 0.033)
            }
            _ = bk_close(colorFD)
            if depthFD >= 0 { _ = bk_close(depthFD) }
            finished.signal()
        }
        thread?.start()
    }

    func stop() {
        lock.lock()
        stopping = true
        lock.unlock()
        if thread != nil { finished.wait() }
    }

    private var isStopping: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopping
    }

    private static func openOutput(_ path: String, format: UInt32, size: FrameSize) throws -> Int32 {
        let fd = bk_v4l2_open(path)
        guard fd >= 0 else { throw SystemError("open \(path)") }
        var request = v4l2_format()
        request.type = V4L2_BUF_TYPE_VIDEO_OUTPUT.rawValue
        request.fmt.pix.width = UInt32(size.width)
        request.fmt.pix.height = UInt32(size.height)
        request.fmt.pix.pixelformat = format
        request.fmt.pix.field = V4L2_FIELD_NONE.rawValue
        request.fmt.pix.bytesperline = UInt32(size.width * 2)
        request.fmt.pix.sizeimage = UInt32(size.pixelCount * 2)
        if let error = V4L2Funnel.control(fd, BK_VIDIOC_S_FMT, &request) {
            _ = bk_close(fd)
            throw SystemError("VIDIOC_S_FMT output \(path)", error)
        }
        return fd
    }
}
