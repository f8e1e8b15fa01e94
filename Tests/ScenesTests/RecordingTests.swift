@_spi(Testing) import Frames
import ImageCodec
@testable import Scenes
import Testing

@Suite struct RecordingTests {
    static let sharedData: String = {
        let parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        return parts.dropLast(3).joined(separator: "/") + "/../shared/data/rgbd"
    }()

    static let settings = "[depth]\nunit_mm = 0.2\nregistered = false\n[intrinsics]\nfx = 500\nfy = 501.5\ncx = 7.5\ncy = 3.5\n[recording]\nframe_rate = 15\n"

    @Test func sharedRecordingsOpenAndDecode() throws {
        let expectations: [(String, FrameSize, Float, Float?)] = [
            ("pcl_five_people", FrameSize(width: 640, height: 480), 1.0, 525.0),
            ("open3d_tum_desk", FrameSize(width: 640, height: 480), 0.2, 535.4),
            ("nyu_dining", FrameSize(width: 560, height: 425), 1.0, nil),
        ]
        for (name, size, unit, fx) in expectations {
            let path = Self.sharedData + "/" + name
            let recording: Recording
            do {
                recording = try Recording.open(path)
            } catch {
                guard case .missingDirectory = error else { throw error }
                print("skipped \(name): \(Self.sharedData) not present (shared RGB-D examples live outside the repository)")
                continue
            }
            #expect(recording.frameCount == 1)
            #expect(recording.colorSize == size && recording.depthSize == size)
            #expect(recording.unitMM == unit && recording.registered)
            #expect(recording.intrinsics?.fx == fx)
            let colour = PixelBuffer(format: .rgb24, size: size)
            let depth = PixelBuffer(format: .z16, size: size)
            try recording.load(frame: 0, color: colour.view, depth: depth.view)
            var holes = 0
            for y in 0..<size.height {
                for x in 0..<size.width where depth.row(y).load(fromByteOffset: x * 2, as: UInt16.self) == 0 { holes += 1 }
            }
            // The README gives 17-22 % holes for these frames.
            let percent = holes * 100 / size.pixelCount
            #expect((10...30).contains(percent), "\(name): \(percent) % holes")
        }
    }

    @Test func syntheticRecordingRoundTrips() throws {
        let fixture = RecordingFixture()
        let size = FrameSize(width: 16, height: 8)
        for index in 0..<3 { try fixture.writeFrame(index, size: size) }
        fixture.writeSettings(Self.settings + "[depth]\ncolour_profile = srgb\n")
        let recording = try Recording.open(fixture.path)
        #expect(recording.frameCount == 3 && recording.colorSize == size && recording.depthSize == size)
        #expect(recording.unitMM == 0.2 && !recording.registered && recording.frameRate == 15)
        #expect(recording.intrinsics == PinholeIntrinsics(fx: 500, fy: 501.5, cx: 7.5, cy: 3.5))
        #expect(recording.settings.warnings == ["unknown key [depth] colour_profile ignored"])
        let colour = PixelBuffer(format: .rgb24, size: size)
        let depth = PixelBuffer(format: .z16, size: size)
        try recording.load(frame: 2, color: colour.view, depth: depth.view)
        #expect(colour.row(5).load(fromByteOffset: 7 * 3, as: UInt8.self) == 2)
        #expect(colour.row(5).load(fromByteOffset: 7 * 3 + 1, as: UInt8.self) == 7)
        #expect(colour.row(5).load(fromByteOffset: 7 * 3 + 2, as: UInt8.self) == 5)
        #expect(depth.row(5).load(fromByteOffset: 7 * 2, as: UInt16.self) == 1027)
        #expect(depth.row(5).load(fromByteOffset: 0, as: UInt16.self) == 0)
        #expect(throws: RecordingError.frameOutOfRange(frame: 3, count: 3)) {
            try recording.load(frame: 3, color: colour.view, depth: depth.view)
        }
    }

    /// Colour 0, 1, 2 beside depth 0, 2, 7: frames 0 and 2, each with its own depth; 1 and 7 left
    /// out and counted (they were paired by position: colour 1 with depth 2).
    @Test func framesPairByNumber() throws {
        let fixture = RecordingFixture()
        let size = FrameSize(width: 8, height: 4)
        for index in [0, 1, 2] { try fixture.writeFrame(index, size: size, depth: false) }
        for index in [0, 2, 7] { try fixture.writeFrame(index, size: size, colour: false) }
        fixture.writeSettings("[depth]\nregistered = true\n")
        let recording = try Recording.open(fixture.path)
        #expect(recording.frameCount == 2 && recording.unpairedColor == [1] && recording.unpairedDepth == [7])
        #expect(recording.frameNumber(1) == 2 && recording.outputName(1) == "000002.png")
        #expect(recording.unpairedSummary?.contains("1 colour frame without depth (1) and 1 depth frame without colour (7)") == true)
        let colour = PixelBuffer(format: .rgb24, size: size)
        let depth = PixelBuffer(format: .z16, size: size)
        try recording.load(frame: 1, color: colour.view, depth: depth.view)
        #expect(colour.row(1).load(fromByteOffset: 3 * 3, as: UInt8.self) == 2)
        #expect(depth.row(1).load(fromByteOffset: 3 * 2, as: UInt16.self) == 1000 + 20 + 3)
    }

    /// Registered depth of another size was stretched over colour; now refused naming both sizes,
    /// and taken (resampled) only when recording.ini states that size.
    @Test func depthOfAnotherSizeIsRefusedUnlessStated() throws {
        let fixture = RecordingFixture()
        try fixture.writeFrame(0, size: FrameSize(width: 8, height: 4), depth: false)
        try fixture.writeFrame(0, size: FrameSize(width: 8, height: 2), colour: false)
        fixture.writeSettings("[depth]\nregistered = true\n")
        do {
            _ = try Recording.open(fixture.path)
            Issue.record("8x2 depth beside 8x4 colour was accepted")
        } catch {
            #expect(error.message.contains("depth is 8x2 but colour is 8x4"), "\(error.message)")
        }
        fixture.writeSettings("[depth]\nregistered = true\nwidth = 8\nheight = 2\n")
        let recording = try Recording.open(fixture.path)
        #expect(recording.depthSize == FrameSize(width: 8, height: 2) && recording.depthResampled)
        fixture.writeSettings("[depth]\nregistered = true\nwidth = 8\nheight = 3\n")
        #expect(throws: RecordingError.self) { try Recording.open(fixture.path) }
    }

    @Test func defaultsApplyWhenKeysAreAbsent() throws {
        let fixture = RecordingFixture()
        try fixture.writeFrame(0, size: FrameSize(width: 4, height: 4))
        fixture.writeSettings("; nothing but a comment\n")
        let recording = try Recording.open(fixture.path)
        #expect(recording.unitMM == 1.0 && recording.registered && recording.intrinsics == nil && recording.frameRate == 30)
    }

    @Test func badRecordingsSayWhatIsWrong() throws {
        func failure(_ path: String) -> RecordingError? {
            do { _ = try Recording.open(path); return nil } catch { return error }
        }
        #expect(failure("/nonexistent/recording") == .missingDirectory(path: "/nonexistent/recording"))

        let empty = RecordingFixture()
        empty.writeSettings(Self.settings)
        #expect(failure(empty.path) == .empty(path: empty.path))
        #expect(failure(empty.path)?.message.contains("empty recording") == true)

        let apart = RecordingFixture()
        apart.writeSettings(Self.settings)
        try apart.writeFrame(0, size: FrameSize(width: 4, height: 4), depth: false)
        try apart.writeFrame(1, size: FrameSize(width: 4, height: 4), colour: false)
        let mismatch = failure(apart.path)
        #expect(mismatch == .countMismatch(path: apart.path, color: 1, depth: 1))
        #expect(mismatch?.message.contains("no frame number has both colour and depth") == true)

        let noSettings = RecordingFixture()
        try noSettings.writeFrame(0, size: FrameSize(width: 4, height: 4))
        guard case .badSettings(let path, _) = failure(noSettings.path) else { Issue.record("missing ini accepted"); return }
        #expect(path.hasSuffix("recording.ini"))

        let badValue = RecordingFixture()
        try badValue.writeFrame(0, size: FrameSize(width: 4, height: 4))
        badValue.writeSettings("[depth]\n\nunit_mm = deep\n")
        let message = failure(badValue.path)?.message ?? ""
        #expect(message.contains("line 3") && message.contains("[depth] unit_mm") && message.contains("deep"), "\(message)")

        // Values that parse but no projection can use: a unit too small for a Float (found by
        // fuzzing), a zero focal length.
        for (text, key) in [("[depth]\nunit_mm = 0.0000000000000000000000000000000000000000000001\n", "unit_mm"),
                            ("[intrinsics]\nfx = 0\nfy = 500\ncx = 1\ncy = 1\n", "fx")] {
            let outOfRange = RecordingFixture()
            try outOfRange.writeFrame(0, size: FrameSize(width: 4, height: 4))
            outOfRange.writeSettings(text)
            #expect(failure(outOfRange.path)?.message.contains(key) == true, "\(text) accepted")
        }

        let partial = RecordingFixture()
        try partial.writeFrame(0, size: FrameSize(width: 4, height: 4))
        partial.writeSettings("[intrinsics]\nfx = 500\n")
        #expect(failure(partial.path)?.message.contains("fx, fy, cx and cy") == true)

        let eightBitDepth = RecordingFixture()
        eightBitDepth.writeSettings(Self.settings)
        try eightBitDepth.writeFrame(0, size: FrameSize(width: 4, height: 4), depth: false)
        let grey = PixelBuffer(format: .alpha8, size: FrameSize(width: 4, height: 4))
        try PNGEncoder.write(grey.view, to: eightBitDepth.path + "/depth/000000.png")
        #expect(failure(eightBitDepth.path)?.message.contains("16-bit") == true)
    }

    @Test func corruptFrameIsReportedWhenLoaded() throws {
        let fixture = RecordingFixture()
        fixture.writeSettings(Self.settings)
        let size = FrameSize(width: 8, height: 8)
        try fixture.writeFrame(0, size: size)
        try fixture.writeFrame(1, size: size, colour: false)
        fixture.write(fixture.path + "/color/000001.png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0])
        let recording = try Recording.open(fixture.path)
        let colour = PixelBuffer(format: .rgb24, size: size)
        let depth = PixelBuffer(format: .z16, size: size)
        do {
            try recording.load(frame: 1, color: colour.view, depth: depth.view)
            Issue.record("corrupt frame decoded")
        } catch {
            guard case .image(.corrupt(let path, _)) = error else { Issue.record("wrong error \(error.message)"); return }
            #expect(path.hasSuffix("color/000001.png"))
        }
    }
}
