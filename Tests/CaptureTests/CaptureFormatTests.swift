import Frames
import Testing
@testable import Capture

@Suite struct CaptureFormatTests {
    @Test func fourCCsRoundTripThroughTheTable() {
        for format in CaptureFormat.allCases where format != .converted {
            #expect(CaptureFormat.fromV4L2(format.v4l2FourCC) == format)
        }
        #expect(CaptureFormat.yuyv.v4l2FourCC == 0x5659_5559)  // v4l2_fourcc('Y','U','Y','V')
        #expect(CaptureFormat.z16.v4l2FourCC == fourCC("Z16 "))
    }

    @Test func bothJPEGFourCCsMeanMJPEG() {
        #expect(CaptureFormat.fromV4L2(fourCC("MJPG")) == .mjpeg)
        #expect(CaptureFormat.fromV4L2(fourCC("JPEG")) == .mjpeg)
    }

    @Test func unknownFourCCsAreNotCaptured() {
        #expect(CaptureFormat.fromV4L2(fourCC("RGB3")) == nil)
        #expect(CaptureFormat.fromV4L2(0) == nil)
    }

    @Test func deliveredFormatsMatchThePipelinesTable() {
        #expect(CaptureFormat.yuyv.delivered() == .yuyv)
        #expect(CaptureFormat.nv12.delivered() == .nv12)
        #expect(CaptureFormat.mjpeg.delivered() == .yuyv)
        #expect(CaptureFormat.mjpeg.delivered(mjpegDecodedTo: .rgb24) == .rgb24)
        #expect(CaptureFormat.z16.delivered() == .z16)
        #expect(CaptureFormat.y16.delivered() == .z16)
        // Where both tables name a V4L2 fourcc they agree.
        for format in CaptureFormat.allCases where !format.isCompressed {
            if let pixel = PixelFormat.fromV4L2(format.v4l2FourCC) { #expect(pixel == format.delivered()) }
        }
    }

    @Test func rolesSplitTheTable() {
        #expect(CaptureFormat.allCases.filter(\.isDepth) == [.z16, .y16])
        #expect(CameraRole.color.formats == [.yuyv, .nv12, .mjpeg])
        #expect(CameraRole.depth.formats == [.z16, .y16])
    }

    @Test func namesParseWithoutRegardToCase() {
        #expect(CaptureFormat.parse("yuyv") == .yuyv)
        #expect(CaptureFormat.parse("MJPEG") == .mjpeg)
        #expect(CaptureFormat.parse("z16") == .z16)
        #expect(CaptureFormat.parse("h264") == nil)
        #expect(CaptureFormat.parse("") == nil)
    }

    @Test func fourCCTextIsReadable() {
        #expect(CaptureFormat.fourCCText(fourCC("Z16 ")) == "Z16 ")
        #expect(CaptureFormat.fourCCText(0x0000_0041) == "A???")
    }

    /// libv4lconvert's output is never a format a node offers or a config names.
    @Test func convertedIsNeitherParsedNorReadFromAFourCC() {
        #expect(CaptureFormat.parse(CaptureFormat.converted.name) == nil)
        #expect(CaptureFormat.fromV4L2(CaptureFormat.converted.v4l2FourCC) == nil)
        #expect(CaptureFormat.converted.delivered() == .rgb24)
        #expect(!CaptureFormat.converted.isDepth && !CaptureFormat.converted.isCompressed)
        for code in CaptureFormat.convertibleColor { #expect(CaptureFormat.fromV4L2(code) == nil) }
    }

    @Test func aNodeOfferingOnlyFormatsLibV4LConvertReadsIsAColourCamera() {
        let uyvyOnly = DeviceDescription(path: "/dev/video0", busInfo: "a", formats: [fourCC("UYVY")])
        #expect(uyvyOnly.offersColor && uyvyOnly.offersConvertibleColor && !uyvyOnly.offersNativeColor)
        let both = DeviceDescription(path: "/dev/video1", busInfo: "b", formats: [fourCC("UYVY"), fourCC("YUYV")])
        #expect(both.offersColor && both.offersNativeColor && !both.offersConvertibleColor)
        let bayerAndGrey = DeviceDescription(path: "/dev/video2", busInfo: "c", formats: [fourCC("RGGB"), fourCC("Y16 ")])
        #expect(bayerAndGrey.offersConvertibleColor && bayerAndGrey.offersDepth && !bayerAndGrey.isDedicatedDepth)
        let h264 = DeviceDescription(path: "/dev/video3", busInfo: "d", formats: [fourCC("H264")])
        #expect(!h264.offersColor)
        let noStreaming = DeviceDescription(path: "/dev/video4", busInfo: "e", canStream: false, formats: [fourCC("UYVY")])
        #expect(!noStreaming.offersColor)
    }
}
