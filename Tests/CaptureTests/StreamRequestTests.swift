import Frames
import Testing
@testable import Capture

@Suite struct StreamRequestTests {
    let size = FrameSize(width: 640, height: 480)

    @Test func autoColourPrefersUncompressedFormats() {
        let request = StreamRequest(role: .color, size: size)
        #expect(request.chooseFormat(offered: [fourCC("MJPG"), fourCC("YUYV")]) == .yuyv)
        #expect(request.chooseFormat(offered: [fourCC("MJPG"), fourCC("NV12")]) == .nv12)
        #expect(request.chooseFormat(offered: [fourCC("MJPG")]) == .mjpeg)
        #expect(request.chooseFormat(offered: [fourCC("Z16 ")]) == nil)
    }

    @Test func aConfiguredFormatIsTakenOnlyWhenOffered() {
        let request = StreamRequest(role: .color, size: size, format: .mjpeg)
        #expect(request.chooseFormat(offered: [fourCC("YUYV"), fourCC("MJPG")]) == .mjpeg)
        #expect(request.chooseFormat(offered: [fourCC("YUYV")]) == nil)
    }

    @Test func depthTakesZ16ThenY16AndNeverColour() {
        let request = StreamRequest(role: .depth, size: size)
        #expect(request.chooseFormat(offered: [fourCC("YUYV"), fourCC("Y16 "), fourCC("Z16 ")]) == .z16)
        #expect(request.chooseFormat(offered: [fourCC("YUYV"), fourCC("Y16 ")]) == .y16)
        #expect(request.chooseFormat(offered: [fourCC("YUYV")]) == nil)
        #expect(StreamRequest(role: .depth, size: size, format: .yuyv).chooseFormat(offered: [fourCC("YUYV")]) == nil)
    }
}
