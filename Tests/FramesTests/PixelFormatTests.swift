import Testing
@_spi(Testing) @testable import Frames

@Suite struct PixelFormatTests {
    @Test func fourccsMatchTheKernelHeaders() {
        // Values from videodev2.h / drm_fourcc.h.
        #expect(PixelFormat.yuyv.v4l2FourCC == 0x5659_5559)
        #expect(PixelFormat.z16.v4l2FourCC == 0x2036_315A)
        #expect(PixelFormat.xrgb8888.drmFourCC == 0x3432_5258)
        // R, G, B in memory on both sides: V4L2 RGB3 and DRM_FORMAT_BGR888 ("BG24").
        #expect(PixelFormat.rgb24.v4l2FourCC == 0x3342_4752)
        #expect(PixelFormat.rgb24.drmFourCC == 0x3432_4742)
        #expect(PixelFormat.fromV4L2(0x3231_564E) == .nv12)
    }

    @Test func nv12CarriesHalfHeightChroma() {
        let buffer = PixelBuffer(format: .nv12, size: FrameSize(width: 64, height: 4))
        #expect(buffer.byteCount == buffer.bytesPerRow * 6)
        #expect(buffer.chromaPlane == buffer.base + buffer.bytesPerRow * 4)
    }

    @Test func sizeParsingRejectsNonsense() {
        #expect(FrameSize.parse("1280x720") == FrameSize(width: 1280, height: 720))
        #expect(FrameSize.parse("0x720") == nil)
        #expect(FrameSize.parse("1280") == nil)
        #expect(FrameSize.parse("axb") == nil)
    }
}
