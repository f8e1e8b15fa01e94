import CKernel
import TestSupport
@_spi(Testing) import Frames
import Glibc
import ImageCodec

/// A recording folder under /tmp (unique name from a counter and the monotonic clock) with
/// helpers to write frames and settings; removed with everything in it on deinit.
final class RecordingFixture {
    nonisolated(unsafe) private static var counter = 0
    let path: String

    init() {
        Self.counter += 1
        path = "/tmp/backdrop-recording-\(getpid())-\(Self.counter)-\(bk_monotonic_ns())"
        precondition(bk_mkdir(path, 0o755) == 0)
        precondition(bk_mkdir(path + "/color", 0o755) == 0)
        precondition(bk_mkdir(path + "/depth", 0o755) == 0)
    }

    deinit { TemporaryDirectory.removeTree(path) }

    func writeSettings(_ text: String) {
        write(path + "/recording.ini", Array(text.utf8))
    }

    func write(_ file: String, _ bytes: [UInt8]) {
        let fd = bk_open_write_truncate(file)
        precondition(fd >= 0)
        bytes.withUnsafeBytes { _ = bk_write(fd, $0.baseAddress, $0.count) }
        _ = bk_close(fd)
    }

    /// Colour frame `index`: every pixel (index, x, y) as (R, G, B). Depth: 1000 + 10 * index + x, 0 in column 0.
    func writeFrame(_ index: Int, size: FrameSize, colour: Bool = true, depth: Bool = true) throws {
        let name = String(repeating: "0", count: 6 - "\(index)".count) + "\(index).png"
        if colour {
            let image = PixelBuffer(format: .rgb24, size: size)
            for y in 0..<size.height {
                for x in 0..<size.width {
                    image.row(y).storeBytes(of: UInt8(index), toByteOffset: x * 3, as: UInt8.self)
                    image.row(y).storeBytes(of: UInt8(x), toByteOffset: x * 3 + 1, as: UInt8.self)
                    image.row(y).storeBytes(of: UInt8(y), toByteOffset: x * 3 + 2, as: UInt8.self)
                }
            }
            try PNGEncoder.write(image.view, to: path + "/color/" + name)
        }
        if depth {
            let image = PixelBuffer(format: .z16, size: size)
            for y in 0..<size.height {
                for x in 0..<size.width {
                    image.row(y).storeBytes(of: x == 0 ? 0 : UInt16(1000 + 10 * index + x), toByteOffset: x * 2, as: UInt16.self)
                }
            }
            try PNGEncoder.write(image.view, to: path + "/depth/" + name)
        }
    }

}
