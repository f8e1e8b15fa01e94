import Frames
import KernelIO
import Testing
@testable import Sinks

@Suite struct Y4MFileSinkTests {
    @Test func writesHeaderAndBT601FramesOfKnownColours() throws {
        let path = "/tmp/backdrop-y4m-test-\(MonotonicClock.nowNanoseconds()).y4m"
        let size = FrameSize(width: 4, height: 2)
        let sink = try Y4MFileSink(path: path, outputSize: size, frameRate: 30)
        let view = sink.outputView(slot: 0)
        // Left 2x2 block white, right 2x2 block pure red (XRGB8888: B, G, R, X in memory).
        for row in 0..<2 {
            let pixels = view.row(row).assumingMemoryBound(to: UInt32.self)
            pixels[0] = 0xFFFF_FFFF; pixels[1] = 0xFFFF_FFFF
            pixels[2] = 0xFFFF_0000; pixels[3] = 0xFFFF_0000
        }
        #expect(sink.present(slot: 0, stamp: FrameStamp(nanoseconds: 1, sequence: 0)) != nil)
        #expect(sink.finish() == nil)
        let bytes = try WholeFile.bytes(path)
        let header = "YUV4MPEG2 W4 H2 F30:1 Ip A1:1 C420jpeg\nFRAME\n"
        #expect(Array(bytes.prefix(header.utf8.count)) == Array(header.utf8))
        let planes = Array(bytes[header.utf8.count...])
        #expect(planes.count == 8 + 2 + 2)
        // BT.601 limited range: white → Y 235, red → Y 82, Cb 90, Cr 240.
        #expect(Array(planes[0..<4]) == [235, 235, 82, 82])
        #expect(planes[8] == 128 && planes[9] == 90)
        #expect(planes[10] == 128 && planes[11] == 240)
    }

    @Test func unwritablePathIsAnError() {
        #expect(throws: SystemError.self) {
            _ = try Y4MFileSink(path: "/nonexistent-dir/x.y4m", outputSize: FrameSize(width: 2, height: 2), frameRate: 30)
        }
    }
}
