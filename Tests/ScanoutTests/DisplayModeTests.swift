import CDRM
import Frames
import Testing
@testable import Scanout

@Suite struct DisplayModeTests {
    private func mode(_ width: UInt16, _ height: UInt16, _ hz: UInt32, preferred: Bool = false) -> DisplayMode {
        var info = drmModeModeInfo()
        info.hdisplay = width
        info.vdisplay = height
        info.vrefresh = hz
        info.type = preferred ? UInt32(DRM_MODE_TYPE_PREFERRED) : 0
        return DisplayMode(info)
    }

    @Test func preferredModeWinsWhenNothingIsConfigured() {
        let modes = [mode(1920, 1080, 60), mode(1280, 720, 60, preferred: true), mode(640, 480, 60)]
        #expect(DisplayMode.choose(modes, wanted: nil)?.size == FrameSize(width: 1280, height: 720))
    }

    @Test func configuredSizeTakesItsHighestRefresh() {
        let modes = [mode(1920, 1080, 30), mode(1920, 1080, 60), mode(1920, 1080, 50), mode(1280, 720, 60, preferred: true)]
        let chosen = DisplayMode.choose(modes, wanted: FrameSize(width: 1920, height: 1080))
        #expect(chosen?.refreshHz == 60)
        #expect(chosen?.description == "1920x1080@60")
    }

    @Test func unofferedSizeFallsBackToPreferredThenFirst() {
        let withPreferred = [mode(800, 600, 60), mode(1024, 768, 60, preferred: true)]
        #expect(DisplayMode.choose(withPreferred, wanted: FrameSize(width: 3840, height: 2160))?.size.width == 1024)
        let without = [mode(800, 600, 60), mode(1024, 768, 60)]
        #expect(DisplayMode.choose(without, wanted: nil)?.size.width == 800)
        #expect(DisplayMode.choose([], wanted: nil) == nil)
    }
}
