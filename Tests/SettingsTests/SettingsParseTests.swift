import Frames
import Testing
@testable import Settings

@Suite struct SettingsParseTests {
    static func parse(_ text: String) -> SettingsParse { Settings.parse(text, fileName: "backdrop.conf") }

    // MARK: values land where they belong

    @Test func everyKindOfValueIsStored() throws {
        let result = Self.parse("""
        [matte]
        mode = auto
        [background]
        fit = stretch
        directory = /media/usb/backdrops
        [camera]
        source = recording
        recording = /data/rec1
        color_device = /dev/v4l/by-id/usb-Intel-video-index0
        color_format = nv12
        depth_unit_mm = 0.125
        registered = no
        depth_fx = 385.5
        depth_fy = 385.5
        depth_cx = 320
        depth_cy = 240.25
        color_fx = 615
        color_fy = 615
        color_cx = 321.5
        color_cy = 239
        tx_mm = -15
        [output]
        sink = file
        path = out/demo.y4m
        card = /dev/dri/card1
        mode = 1920x1080
        blend = plane
        writeback = on
        [pipeline]
        io_cpu = 0
        worker_cpus = 1, 2,3
        [buttons]
        board = qemu-x86_64
        shutter = PHOTO
        [photos]
        directory = /tmp/photos
        countdown_s = 0
        keep_layers = yes
        """)
        #expect(result.problems == [])
        let settings = try #require(result.settings)
        #expect(settings.matte.mode == .auto)
        #expect(settings.background.fit == .stretch)
        #expect(settings.background.directory == "/media/usb/backdrops")
        #expect(settings.camera.source == .recording)
        #expect(settings.camera.recording == "/data/rec1")
        #expect(settings.camera.colorDevice == .named("/dev/v4l/by-id/usb-Intel-video-index0"))
        #expect(settings.camera.depthDevice == .auto)
        #expect(settings.camera.colorFormat == .nv12)
        #expect(settings.camera.depthUnitMM == 0.125)
        #expect(settings.camera.registered == false)
        #expect(settings.camera.depthIntrinsics == PinholeIntrinsics(fx: 385.5, fy: 385.5, cx: 320, cy: 240.25))
        #expect(settings.camera.colorIntrinsics == PinholeIntrinsics(fx: 615, fy: 615, cx: 321.5, cy: 239))
        #expect(settings.camera.depthToColor == DepthToColorOffset(xMM: -15))
        #expect(settings.output.sink == .file)
        #expect(settings.output.path == "out/demo.y4m")
        #expect(settings.output.card == .named("/dev/dri/card1"))
        #expect(settings.output.mode == FrameSize(width: 1920, height: 1080))
        #expect(settings.output.blend == .plane)
        #expect(settings.output.writeback == true)
        #expect(settings.pipeline.ioCPU == 0)
        #expect(settings.pipeline.workerCPUs == .list([1, 2, 3]))
        #expect(settings.buttons.board == "qemu-x86_64")
        #expect(settings.buttons.shutter == "PHOTO")
        #expect(settings.buttons.next == nil)
        #expect(settings.photos.directory == "/tmp/photos")
        #expect(settings.photos.countdownSeconds == 0)
        #expect(settings.photos.keepLayers == true)
    }

    @Test(arguments: [("true", true), ("Yes", true), ("ON", true), ("1", true),
                      ("false", false), ("no", false), ("Off", false), ("0", false)])
    func booleanSpellings(_ text: String, _ value: Bool) {
        #expect(Self.parse("[output]\nwriteback = \(text)\n").settings?.output.writeback == value)
    }

    @Test func inlineSemicolonCommentsAndCRLFAreFine() {
        let result = Self.parse("[matte]\r\nnear_mm = 400 ; closer than the lens hood\r\n# a comment\r\n")
        #expect(result.settings?.matte.nearMM == 400)
    }

    // MARK: wrong types

    @Test(arguments: ["12abc", "1.5", "", "0x10", "ten", "1 000"])
    func integersRejectNonIntegers(_ text: String) {
        let result = Self.parse("[matte]\nnear_mm = \(text)\n")
        #expect(result.settings == nil)
        #expect(result.problems == [
            "backdrop.conf:2: [matte] near_mm = \(text): not a whole number, allowed 0..9999 (millimetres)",
        ])
    }

    @Test(arguments: ["abc", "1e3", "nan", "inf", "1.2.3", "-", ".", "", "0x1p3"])
    func decimalsRejectNonDecimals(_ text: String) {
        let result = Self.parse("[camera]\ndepth_unit_mm = \(text)\n")
        #expect(result.settings == nil)
        #expect(result.problems.first?.contains("[camera] depth_unit_mm = \(text): not a decimal number, allowed 0.001..100") == true)
    }

    @Test func booleansRejectOtherWords() {
        // registered also takes auto (CameraRegistrationSettingsTests); writeback is a plain boolean.
        let result = Self.parse("[output]\nwriteback = maybe\n")
        #expect(result.problems == [
            "backdrop.conf:2: [output] writeback = maybe: not a yes/no value, allowed true, false, yes, no, on, off, 1, 0",
        ])
    }

    @Test func enumerationsListTheAllowedValues() {
        #expect(Self.parse("[matte]\nmode = manual\n").problems == [
            "backdrop.conf:2: [matte] mode = manual: unknown value, allowed fixed, auto",
        ])
        #expect(Self.parse("[background]\nfit = cover\n").problems == [
            "backdrop.conf:2: [background] fit = cover: unknown value, allowed fill, fit, stretch",
        ])
        #expect(Self.parse("[output]\nsink = hdmi\n").problems.first?.hasSuffix("allowed null, file, kms") == true)
        #expect(Self.parse("[camera]\ncolor_format = MJPG\n").problems.first?.hasSuffix("allowed auto, yuyv, nv12, mjpeg") == true)
    }

    @Test(arguments: ["video0", "", "/dev/video 0"])
    func devicesAreAutoOrAbsolutePaths(_ text: String) {
        let result = Self.parse("[camera]\ndepth_device = \(text)\n")
        #expect(result.problems.first?.contains("[camera] depth_device = \(text):") == true)
        #expect(result.problems.first?.hasSuffix("allowed auto or an absolute device path") == true)
    }

    @Test(arguments: ["1920", "1920x", "0x1080", "wide", "1920x1080x2"])
    func displayModeIsAutoOrASize(_ text: String) {
        let result = Self.parse("[output]\nmode = \(text)\n")
        #expect(result.problems.first?.hasSuffix("allowed auto or WIDTHxHEIGHT, each 1..16384") == true)
        #expect(Self.parse("[output]\nmode = auto\n").settings?.output.mode == nil)
    }

    @Test(arguments: [("1,1", "CPU 1 listed twice"), ("64", "\"64\" is not a CPU number"),
                      ("1,,2", "empty entry in the list"), ("", "empty entry in the list"),
                      ("-1", "\"-1\" is not a CPU number"), ("some", "\"some\" is not a CPU number")])
    func cpuListsAreChecked(_ text: String, _ complaint: String) {
        #expect(Self.parse("[pipeline]\nworker_cpus = \(text)\n").problems == [
            "backdrop.conf:2: [pipeline] worker_cpus = \(text): \(complaint), allowed all or a comma-separated list of CPU numbers 0..63",
        ])
    }

    @Test func namesMustBeSingleWordsAndPathsNonEmpty() {
        #expect(Self.parse("[buttons]\nnext = NEXT BUTTON\n").problems.first?.contains("contains spaces, allowed a name without spaces") == true)
        #expect(Self.parse("[photos]\ndirectory =\n").problems == ["backdrop.conf:2: [photos] directory = : empty, allowed a path"])
    }

    @Test func hashInTheMiddleOfAValueGetsAHint() {
        let problems = Self.parse("[matte]\nnear_mm = 300 # mm\n").problems
        #expect(problems.first?.hasSuffix("(inline comments start with \";\")") == true)
    }

    // MARK: syntax

    @Test func syntaxErrorNamesItsLine() {
        let result = Self.parse("[matte]\nnear_mm = 300\nthis is not a setting\nfar_mm = 2500\n")
        #expect(result.settings == nil)
        #expect(result.problems == ["backdrop.conf:3: syntax error (expected \"key = value\" or \"[section]\")"])
    }

    @Test func everySyntaxErrorIsReportedNotJustTheFirst() {
        let result = Self.parse("[matte\nnear_mm = 300\n\njunk\n# fine\n[camera]\nmore junk\n")
        #expect(result.problems == [
            "backdrop.conf:1: syntax error (expected \"key = value\" or \"[section]\")",
            "backdrop.conf:4: syntax error (expected \"key = value\" or \"[section]\")",
            "backdrop.conf:7: syntax error (expected \"key = value\" or \"[section]\")",
        ])
    }

    @Test func aFileThatIsNotINIStopsAfterTwentySyntaxErrors() {
        let problems = Self.parse(String(repeating: "junk\n", count: 100)).problems
        #expect(problems.count == 21)
        #expect(problems.last == "backdrop.conf:21: more syntax errors from here on; not listed")
    }

    @Test func aValueWithoutAKeyIsASyntaxError() {
        #expect(Self.parse("[matte]\n= 300\n").problems == [
            "backdrop.conf:2: syntax error (expected \"key = value\" or \"[section]\")",
        ])
    }

    @Test func quotedPathsAreRejectedWithAHint() {
        #expect(Self.parse("[photos]\ndirectory = \"/media/my photos\"\n").problems == [
            "backdrop.conf:2: [photos] directory = \"/media/my photos\": quoted (write it without quotes), allowed a path",
        ])
        #expect(Self.parse("[photos]\ndirectory = /media/my photos\n").settings?.photos.directory == "/media/my photos")
    }

    @Test func overlongLineIsAProblemOnItsLine() {
        let long = String(repeating: "a", count: 300)
        let result = Self.parse("[photos]\ndirectory = /\(long)\n[matte]\nnear_mm = 12abc\n")
        #expect(result.problems.count == 2)
        #expect(result.problems.first == "backdrop.conf:2: line longer than 198 characters")
        #expect(result.problems.last?.hasPrefix("backdrop.conf:4: [matte] near_mm = 12abc") == true)
    }

    @Test func theLineBoundIsTheSameWithOrWithoutAFinalNewline() {
        let longest = "# " + String(repeating: "w", count: 196)
        #expect(Self.parse(longest).problems.isEmpty)
        #expect(Self.parse(longest + "\n").problems.isEmpty)
        #expect(Self.parse(longest + "w").problems == ["backdrop.conf:1: line longer than 198 characters"])
        #expect(Self.parse(longest + "w\n").problems == ["backdrop.conf:1: line longer than 198 characters"])
    }

    @Test func aKeyGivenTwiceIsAProblem() {
        let result = Self.parse("[matte]\nnear_mm = 300\nfar_mm = 2500\nnear_mm = 400\n")
        #expect(result.problems == ["backdrop.conf:4: [matte] near_mm = 400: already set on line 2; keep one"])
    }

    @Test func anIndentedKeyIsCaughtNotSilentlyMerged() {
        // libinih reads an indented line as a continuation of the previous value.
        let result = Self.parse("[matte]\nnear_mm = 300\n  far_mm = 2500\n")
        #expect(result.settings == nil)
        #expect(result.problems == [
            "backdrop.conf:3: indented line continues [matte] near_mm from line 2; start every key at the beginning of its line",
        ])
    }

    // MARK: unknown names

    @Test func unknownKeyIsAWarningAndTheRestApplies() throws {
        let result = Self.parse("[matte]\nnearmm = 400\nfar_mm = 2500\n")
        let settings = try #require(result.settings)
        #expect(settings.matte.farMM == 2500)
        #expect(settings.matte.nearMM == 300)
        #expect(result.warnings.count == 1)
        #expect(result.warnings.first?.hasPrefix("backdrop.conf:2: [matte] nearmm: unknown key, ignored (known keys: mode, near_mm, far_mm") == true)
    }

    @Test func theRetiredButtonsChipKeyIsOnlyAWarning() throws {
        // Lines are found by name on every chip; a chip key was read and never used, so it is gone,
        // and an old config that sets it still loads.
        let result = Self.parse("[buttons]\nchip = gpio-sim.0-node0\nshutter = PHOTO\n")
        #expect(try #require(result.settings).buttons.shutter == "PHOTO")
        #expect(result.warnings.count == 1)
        #expect(result.warnings.first?.hasPrefix("backdrop.conf:2: [buttons] chip: unknown key, ignored") == true)
    }

    @Test func unknownSectionIsOneWarning() {
        let result = Self.parse("[display]\nwidth = 1\nheight = 2\n[output]\nwidth = 1920\n")
        #expect(result.settings?.output.size.width == 1920)
        #expect(result.warnings == [
            "backdrop.conf:2: [display]: unknown section, its keys are ignored (known sections: matte, background, camera, sync, output, pipeline, buttons, photos, looks)",
        ])
    }

    @Test func keyOutsideAnySectionIsAWarning() {
        let result = Self.parse("near_mm = 400\n[matte]\n")
        #expect(result.settings == Settings.defaults)
        #expect(result.warnings == ["backdrop.conf:1: near_mm is outside any section, ignored"])
    }

    // MARK: contradictions

    @Test(arguments: [(2000, 1500), (1500, 1500)])
    func nearMustBeLessThanFar(_ near: Int, _ far: Int) {
        let result = Self.parse("[matte]\nnear_mm = \(near)\nfar_mm = \(far)\n")
        #expect(result.settings == nil)
        #expect(result.problems == [
            "backdrop.conf: [matte] near_mm = \(near) and far_mm = \(far): near_mm must be less than far_mm",
        ])
    }

    @Test func recordingSourceNeedsARecording() {
        #expect(Self.parse("[camera]\nsource = recording\n").problems == [
            "backdrop.conf: [camera] source = recording needs recording = <directory of the recording>",
        ])
        #expect(Self.parse("[camera]\nsource = recording\nrecording = rec\n").settings?.camera.recording == "rec")
    }

    @Test func unregisteredDepthNeedsBothIntrinsics() {
        #expect(Self.parse("[camera]\nregistered = false\n").problems == [
            "backdrop.conf: [camera] registered = false needs the depth and colour intrinsics to map depth onto colour; "
                + "missing: depth_fx, depth_fy, depth_cx, depth_cy, color_fx, color_fy, color_cx, color_cy",
        ])
        let onlyDepth = Self.parse("[camera]\nregistered = false\n" + KeyRangeTests.depthSet)
        #expect(onlyDepth.problems.first?.hasSuffix("missing: color_fx, color_fy, color_cx, color_cy") == true)
        let both = Self.parse("[camera]\nregistered = false\n" + KeyRangeTests.depthSet + KeyRangeTests.colorSet)
        #expect(both.settings?.camera.depthIntrinsics == PinholeIntrinsics(fx: 500, fy: 500, cx: 300, cy: 200))
    }

    @Test func halfASetOfIntrinsicsIsAProblemEvenWhenRegistered() {
        #expect(Self.parse("[camera]\ncolor_fx = 600\ncolor_cy = 240\n").problems == [
            "backdrop.conf: [camera] colour intrinsics incomplete; missing: color_fy, color_cx",
        ])
    }

    @Test func captureSizeMustSuitTheColourFormat() {
        #expect(Self.parse("[camera]\nwidth = 641\ncolor_format = yuyv\n").problems == [
            "backdrop.conf: [camera] width = 641, height = 480 and color_format = yuyv: yuyv needs an even width",
        ])
        // auto may be granted YUYV: held to its rule.
        #expect(Self.parse("[camera]\nwidth = 641\n").problems == [
            "backdrop.conf: [camera] width = 641, height = 480 and color_format = auto: auto may be yuyv, which needs an even width",
        ])
        #expect(Self.parse("[camera]\ncolor_format = nv12\nheight = 481\n").problems.first?.hasSuffix("nv12 needs an even width and height") == true)
        #expect(Self.parse("[camera]\ncolor_format = mjpeg\nwidth = 641\n").problems == [
            "backdrop.conf: [camera] width = 641, height = 480 and color_format = mjpeg: "
                + "mjpeg is decoded into yuyv, which needs an even width",
        ])
        #expect(Self.parse("[camera]\nsource = synthetic\ncolor_format = mjpeg\nwidth = 641\n").problems == [
            "backdrop.conf: [camera] width = 641, height = 480 and color_format = mjpeg: "
                + "the synthetic source renders yuyv, which needs an even width",
        ])
        #expect(Self.parse("[camera]\ncolor_format = mjpeg\nwidth = 640\nheight = 481\n").settings != nil)
    }

    @Test func aY4MFileNeedsAnEvenOutputSize() {
        #expect(Self.parse("[output]\nsink = file\npath = out/run.y4m\nwidth = 1279\n").problems == [
            "backdrop.conf: [output] width = 1279, height = 720 and path = out/run.y4m: "
                + "a .y4m video stores colour per 2x2 pixels, so width and height must be even",
        ])
        #expect(Self.parse("[output]\nsink = file\npath = out/run.y4m\nheight = 719\n").problems.count == 1)
        // PNG frames keep every pixel's colour: any size.
        #expect(Self.parse("[output]\nsink = file\npath = out/frames\nwidth = 1279\n").settings != nil)
    }

    @Test func fileSinkNeedsAPath() {
        #expect(Self.parse("[output]\nsink = file\n").problems == [
            "backdrop.conf: [output] sink = file needs path = <file.y4m, or a directory for PNGs>",
        ])
    }

    @Test func eachButtonNeedsItsOwnLine() {
        #expect(Self.parse("[buttons]\nnext = GPIO5\nshutter = GPIO5\n").problems == [
            "backdrop.conf: [buttons] next and shutter both name line GPIO5: each button needs its own line",
        ])
        #expect(Self.parse("[buttons]\nnext = GPIO5\nprevious = gpiochip-label:6\n").settings?.buttons.previous == "gpiochip-label:6")
    }

    @Test func longPressMustOutlastDebounce() {
        #expect(Self.parse("[buttons]\ndebounce_ms = 500\nlong_press_ms = 500\n").problems == [
            "backdrop.conf: [buttons] long_press_ms = 500 and debounce_ms = 500: long_press_ms must be more than debounce_ms",
        ])
    }

    @Test func doubtfulCombinationsAreWarnings() {
        let wide = Self.parse("[sync]\ntolerance_ms = 20\n")
        #expect(wide.settings != nil)
        #expect(wide.warnings.first?.contains("[sync] tolerance_ms = 20 is more than half a frame period at 30 fps") == true)
        #expect(Self.parse("[sync]\ntolerance_ms = 16\n").warnings == [])
        #expect(Self.parse("[pipeline]\nrealtime_priority = 40\n").warnings.count == 1)
    }

    @Test func autoToleranceIsHalfAFramePeriod() {
        #expect(SyncSettings().toleranceNanoseconds(fps: 30) == 16_666_666)
        var sync = SyncSettings()
        sync.toleranceMS = 5
        #expect(sync.toleranceNanoseconds(fps: 30) == 5_000_000)
    }

    // MARK: all or nothing

    @Test func severalProblemsAreReportedAtOnceInLineOrder() {
        let result = Self.parse("""
        [matte]
        near_mm = 2500
        far_mm = 2000
        feather_px = lots
        garbage
        [camera]
        fps = 0
        source = recording
        """)
        #expect(result.settings == nil)
        #expect(result.problems == [
            "backdrop.conf:4: [matte] feather_px = lots: not a whole number, allowed 0..32 (pixels)",
            "backdrop.conf:5: syntax error (expected \"key = value\" or \"[section]\")",
            "backdrop.conf:7: [camera] fps = 0: out of range, allowed 1..240 (frames per second)",
            "backdrop.conf: [matte] near_mm = 2500 and far_mm = 2000: near_mm must be less than far_mm",
            "backdrop.conf: [camera] source = recording needs recording = <directory of the recording>",
        ])
    }

    @Test(arguments: [
        "[matte]\nnear_mm = 400\nfar_mm = 99999\n",
        "[matte]\nnear_mm = 400\n[camera]\nfps = 30\nnonsense\n",
        "[output]\nwidth = 1920\nsink = file\n",
        "[matte]\nnear_mm = 400\nnear_mm = 400\n",
    ])
    func anInvalidFileNeverYieldsSettings(_ text: String) {
        let result = Self.parse(text)
        #expect(result.settings == nil)
        #expect(!result.problems.isEmpty)
        if case .valid = result { Issue.record("an invalid file produced settings") }
    }

    @Test func fileNameLabelsEveryMessage() {
        let result = Settings.parse("[matte]\nnear_mm = x\n[nope]\na = 1\n", fileName: "/media/usb/backdrop.conf")
        #expect(result.problems.allSatisfy { $0.hasPrefix("/media/usb/backdrop.conf:") })
        #expect(result.warnings.allSatisfy { $0.hasPrefix("/media/usb/backdrop.conf:") })
    }
}
