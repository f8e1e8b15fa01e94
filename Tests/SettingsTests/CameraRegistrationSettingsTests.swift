import Frames
import Testing
@testable import Settings

/// `[camera] registered = auto` (the default), each stream's own size, color_format = auto and a
/// typed depth unit, as the RealSense path reads them.
@Suite struct CameraRegistrationSettingsTests {
    static func camera(_ body: String) throws -> CameraSettings {
        let result = Settings.parse("[camera]\n" + body, fileName: "backdrop.conf")
        #expect(result.problems == [])
        return try #require(result.settings).camera
    }

    @Test func defaultsLeaveItToTheCamera() throws {
        let camera = try Self.camera("")
        #expect(camera.registration == .auto)
        #expect(camera.depthSize == nil && camera.colorSize == nil)
        #expect(camera.colorFormat == .auto)
        #expect(camera.depthUnitTyped == false && camera.depthUnitMM == 1.0)
        // auto needs no intrinsics: the camera may bring them, or the start-up says what to set.
        #expect(camera.depthIntrinsics == nil)
    }

    @Test(arguments: [("auto", CameraSettings.Registration.auto), ("true", .registered), ("yes", .registered),
                      ("on", .registered), ("1", .registered), ("false", .unregistered), ("no", .unregistered)])
    func registeredTakesAutoAndTheBooleanWords(word: String, expected: CameraSettings.Registration) throws {
        let intrinsics = "\ndepth_fx = 421.5\ndepth_fy = 421.5\ndepth_cx = 424\ndepth_cy = 239\n"
            + "color_fx = 613\ncolor_fy = 613\ncolor_cx = 646\ncolor_cy = 358\n"
        #expect(try Self.camera("registered = \(word)" + intrinsics).registration == expected)
    }

    @Test func registeredRefusesOtherWordsSayingWhatIsAllowed() {
        let result = Settings.parse("[camera]\nregistered = maybe\n", fileName: "backdrop.conf")
        #expect(result.problems.count == 1)
        #expect(result.problems.first?.contains("auto, true, false") == true)
    }

    @Test func unregisteredStillNeedsIntrinsics() {
        let result = Settings.parse("[camera]\nregistered = false\n", fileName: "backdrop.conf")
        #expect(result.problems.first?.contains("registered = false needs the depth and colour intrinsics") == true)
    }

    @Test func eachStreamItsOwnSizeAndATypedUnit() throws {
        let camera = try Self.camera("depth_size = 848x480\ncolor_size = 1280x720\ndepth_unit_mm = 0.1\ncolor_format = yuyv\n")
        #expect(camera.depthSize == FrameSize(width: 848, height: 480))
        #expect(camera.colorSize == FrameSize(width: 1280, height: 720))
        #expect(camera.depthUnitTyped && camera.depthUnitMM == 0.1)
        #expect(camera.colorFormat == .yuyv)
        #expect(try Self.camera("depth_size = auto\n").depthSize == nil)
    }
}
