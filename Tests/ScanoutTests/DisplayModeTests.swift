import CDRM
import Frames
import Testing
@testable import Scanout

@Suite struct DisplayModeTests {
    private static func mode(_ width: UInt16, _ height: UInt16, _ hz: UInt32, preferred: Bool = false,
                             interlaced: Bool = false) -> DisplayMode {
        var info = drmModeModeInfo()
        info.hdisplay = width
        info.vdisplay = height
        info.vrefresh = hz
        info.type = preferred ? UInt32(DRM_MODE_TYPE_PREFERRED) : 0
        info.flags = interlaced ? UInt32(DRM_MODE_FLAG_INTERLACE) : 0
        return DisplayMode(info)
    }
    private func mode(_ width: UInt16, _ height: UInt16, _ hz: UInt32, preferred: Bool = false) -> DisplayMode {
        Self.mode(width, height, hz, preferred: preferred)
    }

    /// A 4K TV on a Pi 4 without 4K60 enabled, in the order the kernel lists its EDID's modes: vc4
    /// drops the 594 MHz 2160p60 timings (the EDID's preferred one among them), so no mode is
    /// marked preferred and the first is 3840x2160@30. CEA modes with their 1080i, 50 Hz and
    /// 24/25/30 Hz variants, then the VESA ones the EDID's established timings add.
    static var tv4K: [DisplayMode] { [
        mode(3840, 2160, 30), mode(3840, 2160, 25), mode(3840, 2160, 24), mode(4096, 2160, 24),
        mode(2560, 1440, 60), mode(1920, 1080, 60, interlaced: true), mode(1920, 1080, 50, interlaced: true),
        mode(1920, 1080, 30), mode(1920, 1080, 60), mode(1920, 1080, 50), mode(1920, 1080, 25), mode(1920, 1080, 24),
        mode(1680, 1050, 60), mode(1600, 900, 60), mode(1280, 1024, 60), mode(1280, 720, 60), mode(1280, 720, 50),
        mode(1024, 768, 60), mode(800, 600, 60), mode(720, 576, 50), mode(720, 480, 60), mode(640, 480, 60),
    ] }
    /// A 720p home-cinema projector: native 1280x720 (preferred), and the 1080 signals it accepts
    /// and scales down.
    static var projector720p: [DisplayMode] { [
        mode(1280, 720, 60, preferred: true), mode(1920, 1080, 60), mode(1920, 1080, 60, interlaced: true),
        mode(1920, 1080, 50), mode(1920, 1080, 24), mode(1280, 720, 50), mode(1024, 768, 60), mode(800, 600, 60),
        mode(720, 576, 50), mode(720, 480, 60), mode(640, 480, 60),
    ] }
    /// Debian's 64 MB CMA less a 1080p console framebuffer, for three slots, a backdrop and writeback.
    static let piBudget = DisplayMode.Budget(bytes: (64 - 8) << 20, buffers: 5)

    @Test func aFourKTVGets1080pAt60NotTheFirstMode() {
        let chosen = DisplayMode.choose(Self.tv4K, wanted: nil, budget: Self.piBudget)
        #expect(chosen?.description == "1920x1080@60")
        // Even with room for 2160p, auto stays at 1080p: every frame is composed at this size.
        #expect(DisplayMode.choose(Self.tv4K, wanted: nil)?.description == "1920x1080@60")
        // What the old rule (preferred, else first) took, and why it could not run.
        #expect(Self.tv4K[0].description == "3840x2160@30")
        #expect(!Self.piBudget.fits(Self.tv4K[0].size))
    }

    @Test func aProjectorGetsItsNativeMode() {
        #expect(DisplayMode.choose(Self.projector720p, wanted: nil, budget: Self.piBudget)?.description == "1280x720@60")
    }

    @Test func aSmallBudgetTakesTheLargestModeThatFits() {
        // 3 x 1080p (23.7 MiB) does not fit 23 MiB; 3 x 1680x1050 (20.2 MiB) does.
        let tight = DisplayMode.Budget(bytes: 23 << 20, buffers: 3)
        #expect(DisplayMode.choose(Self.tv4K, wanted: nil, budget: tight)?.description == "1680x1050@60")
        // Neither the projector's native 720p (3 x 3.5 MiB) nor 1024x768 (9 MiB) fits 8 MiB; 800x600 does.
        let tiny = DisplayMode.Budget(bytes: 8 << 20, buffers: 3)
        #expect(DisplayMode.choose(Self.projector720p, wanted: nil, budget: tiny)?.description == "800x600@60")
        #expect(DisplayMode.choose(Self.projector720p, wanted: nil, budget: DisplayMode.Budget(bytes: 1 << 20, buffers: 3)) == nil)
    }

    @Test func aConfiguredModeCanAskForMore() {
        let chosen = DisplayMode.choose(Self.tv4K, wanted: FrameSize(width: 3840, height: 2160), budget: Self.piBudget)
        #expect(chosen?.description == "3840x2160@30")
        // At 1080 the progressive 60 Hz mode wins over the 1080i one listed first.
        #expect(DisplayMode.choose(Self.tv4K, wanted: FrameSize(width: 1920, height: 1080))?.description == "1920x1080@60")
    }

    @Test func sixtyHertzBeforeHigherRates() {
        let modes = [mode(1920, 1080, 120), mode(1920, 1080, 60), mode(1920, 1080, 100), mode(1280, 720, 60)]
        #expect(DisplayMode.choose(modes, wanted: nil)?.description == "1920x1080@60")
        let no60 = [mode(1920, 1080, 24), mode(1920, 1080, 50), mode(1920, 1080, 30)]
        #expect(DisplayMode.choose(no60, wanted: nil)?.description == "1920x1080@50")
    }

    @Test func interlacedOnlyWhenNothingElseFits() {
        // An HD-ready TV whose preferred timing is 1080i: 720p progressive instead.
        let hdReady = [Self.mode(1920, 1080, 60, preferred: true, interlaced: true), mode(1280, 720, 60), mode(720, 576, 50)]
        #expect(DisplayMode.choose(hdReady, wanted: nil)?.description == "1280x720@60")
        let onlyInterlaced = [Self.mode(1920, 1080, 60, interlaced: true)]
        #expect(DisplayMode.choose(onlyInterlaced, wanted: nil)?.description == "1920x1080@60i")
    }

    @Test func aDisplayWithOnlyBigModesGetsTheSmallest() {
        let panel = [mode(3840, 2160, 60, preferred: true), mode(2560, 1440, 60), mode(3840, 2160, 30)]
        #expect(DisplayMode.choose(panel, wanted: nil)?.description == "2560x1440@60")
    }

    @Test func preferredNativeModeWithinTheLimitWins() {
        let modes = [mode(1920, 1080, 60), mode(1366, 768, 60, preferred: true), mode(640, 480, 60)]
        #expect(DisplayMode.choose(modes, wanted: nil)?.size == FrameSize(width: 1366, height: 768))
    }

    @Test func unofferedSizeFallsBackToAuto() {
        let withPreferred = [mode(800, 600, 60), mode(1024, 768, 60, preferred: true)]
        #expect(DisplayMode.choose(withPreferred, wanted: FrameSize(width: 3840, height: 2160))?.size.width == 1024)
        let without = [mode(800, 600, 60), mode(1024, 768, 60)]
        #expect(DisplayMode.choose(without, wanted: nil)?.size.width == 1024)
        #expect(DisplayMode.choose([], wanted: nil) == nil)
    }

    @Test func budgetFromMeminfo() {
        let pi = "MemTotal:        3884548 kB\nCmaTotal:          65536 kB\nCmaFree:           57344 kB\n"
        #expect(DisplayMode.Budget.fromMeminfo(pi, buffers: 4) == DisplayMode.Budget(bytes: 57344 * 1024, buffers: 4))
        let noCMA = "MemTotal:        3884548 kB\nCmaTotal:              0 kB\nCmaFree:               0 kB\n"
        #expect(DisplayMode.Budget.fromMeminfo(noCMA, buffers: 4) == .unbounded)
        #expect(DisplayMode.Budget.fromMeminfo("MemTotal: 1 kB\n", buffers: 4) == .unbounded)
    }
}
