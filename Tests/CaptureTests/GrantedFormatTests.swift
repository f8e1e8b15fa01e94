import Frames
import Testing
@testable import Capture

@Suite struct GrantedFormatTests {
    @Test func summaryStatesExactlyWhatWasGranted() {
        let granted = GrantedFormat(format: .yuyv, size: FrameSize(width: 640, height: 480), bytesPerRow: 1280,
                                    imageBytes: 614_400, intervalNumerator: 1, intervalDenominator: 30,
                                    bufferCount: 4, dmabufExported: true)
        #expect(granted.summary == "YUYV 640x480 stride 1280, 30 fps, 4 mmap buffers (dmabuf)")
        #expect(granted.framesPerSecond == 30)
    }

    @Test func fractionalAndUnknownRates() {
        var granted = GrantedFormat(format: .mjpeg, size: FrameSize(width: 1280, height: 720), bytesPerRow: 0,
                                    imageBytes: 1_843_200, intervalNumerator: 1001, intervalDenominator: 30000,
                                    bufferCount: 3, dmabufExported: false)
        #expect(granted.framesPerSecond == 30)
        #expect(granted.summary == "MJPEG 1280x720, 30000/1001 fps, 3 mmap buffers (no dmabuf export)")
        granted.intervalNumerator = 0
        granted.intervalDenominator = 0
        #expect(granted.framesPerSecond == nil)
        #expect(granted.summary.contains("frame rate not reported"))
    }
}
