import CKernel
import Glibc
import Import
import KernelIO
import Settings
import TestSupport
import Testing

/// One test per rule of the stick contract (see `StickImport`).
@Suite struct StickImportTests {
    static let goodConfig = "[matte]\nfar_mm = 2500\n"

    @Test func aGoodStickBecomesTheCurrentGeneration() {
        let fixture = StickFixture(config: Self.goodConfig,
                                   backdrops: ["a.png": StickFixture.png(seed: 1), "b.jpg": StickFixture.jpeg()])
        let report = fixture.run()
        #expect(report.outcome == .newGeneration("000001"), "\(report.transcript)")
        #expect(report.outcome.exitStatus == 0)
        #expect(fixture.current() == "generations/000001")
        #expect(fixture.currentBackdrops() == ["a.png", "b.jpg"])
        #expect(fixture.stored(Self.goodConfig))
        #expect(report.takenTexts.count == 3)
        #expect(report.says("backdrop/backgrounds/a.png: 32x24"))
        #expect(report.skippedTexts.isEmpty)
    }

    @Test func aBadConfigIsRefusedWithTheCheckConfigMessageWhileGoodBackdropsComeIn() {
        let fixture = StickFixture(config: Self.goodConfig, backdrops: ["a.png": StickFixture.png(seed: 1)])
        #expect(fixture.run().outcome == .newGeneration("000001"))
        fixture.put("backdrop.conf", Array("[matte]\n\nfar_mm = 90000\n".utf8))
        fixture.put("backgrounds/b.png", StickFixture.png(seed: 2))
        let report = fixture.run()
        #expect(report.outcome == .newGeneration("000002"), "\(report.transcript)")
        // The parser's own words: file, line, key, value and what is allowed.
        #expect(report.skippedTexts.contains(
            "config refused: backdrop/backdrop.conf:3: [matte] far_mm = 90000: out of range, allowed 100..10000 (millimetres)"),
            "\(report.transcript)")
        #expect(report.says("kept the current one"))
        #expect(fixture.stored(Self.goodConfig))
        #expect(fixture.currentBackdrops() == ["a.png", "b.png"])
        #expect(fixture.previous() == "generations/000001")
    }

    @Test func crlfAndABomAreFine() {
        let text = "\u{FEFF}[matte]\r\nfar_mm = 3000\r\n"
        let fixture = StickFixture(config: text)
        let report = fixture.run()
        #expect(report.outcome == .newGeneration("000001"), "\(report.transcript)")
        #expect(report.says("backdrop/backdrop.conf: new config"))
    }

    @Test func pathKeysFromAStickAreRefused() {
        let fixture = StickFixture(config: "[photos]\ndirectory = /etc\n[background]\ndirectory = /root\n",
                                   backdrops: ["a.png": StickFixture.png()])
        let report = fixture.run()
        #expect(report.outcome == .newGeneration("000001"))
        #expect(report.skippedTexts.contains { $0.contains("backdrop.conf:2: [photos] directory = /etc: a config from a stick cannot set paths") },
                "\(report.transcript)")
        #expect(report.skippedTexts.contains { $0.contains("backdrop.conf:4: [background] directory = /root") })
        // First generation, stick config refused: the defaults (no path anywhere).
        let stored = fixture.currentConfig() ?? ""
        #expect(!stored.contains("/etc") && !stored.contains("/root"))
        #expect(stored.contains("directory = \(fixture.data)/current/backgrounds"))
    }

    @Test func symlinksOutOfTheStickAreNeverFollowed() {
        let outside = TemporaryDirectory("outside")
        _ = outside.write("secret.png", StickFixture.png(seed: 9))
        let fixture = StickFixture(backdrops: ["good.png": StickFixture.png()])
        #expect(symlink(outside.file("secret.png"), fixture.path("backgrounds/link.png")) == 0)
        _ = outside.write("other.conf", Array(Self.goodConfig.utf8))
        #expect(symlink(outside.file("other.conf"), fixture.path("backdrop.conf")) == 0)
        #expect(symlink(outside.path, fixture.path("backgrounds/folder")) == 0)
        let report = fixture.run()
        #expect(report.outcome == .newGeneration("000001"))
        #expect(fixture.currentBackdrops() == ["good.png"])
        #expect(report.skippedTexts.contains("backdrop/backgrounds/link.png: a symlink (not followed); backgrounds/ holds PNG and JPEG files only"),
                "\(report.transcript)")
        #expect(report.skippedTexts.contains { $0.hasPrefix("backdrop/backgrounds/folder: a symlink") })
        #expect(report.skippedTexts.contains { $0.hasPrefix("backdrop/backdrop.conf: a symlink") })
    }

    @Test func aSymlinkedBackdropFolderOrStickFolderIsRefused() {
        let outside = TemporaryDirectory("outside")
        #expect(bk_mkdir(outside.file("backdrop"), 0o755) == 0)
        _ = outside.write("backdrop/backdrop.conf", Array(Self.goodConfig.utf8))
        let stick = TemporaryDirectory("stick")
        #expect(symlink(outside.file("backdrop"), stick.file("backdrop")) == 0)
        var options = StickImport.Options(stick: stick.path)
        let box = TemporaryDirectory("box")
        options.data = box.file("data")
        options.baseConfig = nil
        let report = StickImport.run(options)
        #expect(report.outcome == .nothingUsable)
        #expect(report.skippedTexts == ["backdrop: a symlink, not a folder"])
        #expect(bk_is_directory(box.file("data/generations")) != 1 || bk_file_size(box.file("data/current")) < 0)
    }

    @Test func wrongKindsAreNamedAndTheCurrentPartsStay() {
        let fixture = StickFixture(config: Self.goodConfig, backdrops: ["a.png": StickFixture.png()])
        #expect(fixture.run().outcome == .newGeneration("000001"))
        fixture.remove("backdrop.conf")
        fixture.remove("backgrounds")
        fixture.makeFolder("backdrop.conf")
        fixture.put("backgrounds", [1, 2, 3])
        let report = fixture.run()
        #expect(report.outcome == .nothingUsable, "\(report.transcript)")
        #expect(report.skippedTexts.contains("backdrop/backdrop.conf: a folder, not a file; kept the current config"))
        #expect(report.skippedTexts.contains("backdrop/backgrounds: a file, not a folder; kept the current backdrops"))
        #expect(fixture.current() == "generations/000001")
        #expect(fixture.currentBackdrops() == ["a.png"])
    }

    @Test func wrongFileKindsInsideBackgroundsAreSkipped() {
        let fixture = StickFixture(backdrops: ["a.png": StickFixture.png(), "notes.txt": Array("hi".utf8),
                                               "sunset.tif": [0x49, 0x49, 0x2A, 0]])
        fixture.put("backgrounds/fake.png", Array("not an image at all".utf8))
        fixture.put("backgrounds/cut.png", Array(StickFixture.png().prefix(60)))
        fixture.makeFolder("backgrounds/sub")
        let report = fixture.run()
        #expect(report.outcome == .newGeneration("000001"))
        #expect(fixture.currentBackdrops() == ["a.png"])
        #expect(report.skippedTexts.contains("backdrop/backgrounds/sunset.tif: not a PNG or JPEG (.png, .jpg, .jpeg)"))
        #expect(report.skippedTexts.contains("backdrop/backgrounds/fake.png: not a PNG or JPEG"), "\(report.transcript)")
        #expect(report.skippedTexts.contains { $0.hasPrefix("backdrop/backgrounds/cut.png: corrupt or truncated image") })
        #expect(report.skippedTexts.contains { $0.hasPrefix("backdrop/backgrounds/sub: a folder") })
    }

    @Test func anEmptyStickOrNoBackdropFolderIsNothingUsable() {
        let fixture = StickFixture()
        let report = fixture.run()
        #expect(report.outcome == .nothingUsable)
        #expect(report.outcome.exitStatus == 2)
        #expect(fixture.current() == nil)

        let bare = TemporaryDirectory("bare-stick")
        var options = StickImport.Options(stick: bare.path)
        options.data = fixture.data
        options.baseConfig = nil
        let bareReport = StickImport.run(options)
        #expect(bareReport.outcome == .nothingUsable)
        #expect(bareReport.says("no backdrop/ folder at the root of the stick"))
    }

    @Test func aMissingStickRootIsInvalidInput() {
        var options = StickImport.Options(stick: "/nonexistent-stick-root")
        let box = TemporaryDirectory("box")
        options.data = box.file("data")
        #expect(StickImport.run(options).outcome == .nothingUsable)
    }

    @Test func tooManyFilesStopAtTheBackdropLimitAndTheEntryLimit() {
        var backdrops: [String: [UInt8]] = [:]
        for index in 0..<12 { backdrops["img-\(index < 10 ? "0" : "")\(index).png"] = StickFixture.png(width: 8, height: 8, seed: UInt8(index)) }
        let fixture = StickFixture(backdrops: backdrops)
        var limits = ImportLimits()
        limits.backdrops = 5
        limits.entries = 10
        let report = fixture.run(limits: limits)
        #expect(report.outcome == .newGeneration("000001"))
        #expect(fixture.currentBackdrops() == ["img-00.png", "img-01.png", "img-02.png", "img-03.png", "img-04.png"])
        #expect(report.skippedTexts.contains("backdrop/backgrounds/img-05.png: the limit of 5 backdrops is reached"))
        #expect(report.skippedTexts.contains("backdrop/backgrounds/: 2 more entries not looked at (the limit is 10 entries)"),
                "\(report.transcript)")
    }

    @Test func bytesPerFileAndInTotalAreBounded() {
        let big = StickFixture.png(width: 64, height: 64, seed: 3)
        let fixture = StickFixture(backdrops: ["a.png": StickFixture.png(seed: 1), "b.png": big, "c.png": StickFixture.png(seed: 2)])
        var limits = ImportLimits()
        limits.fileBytes = big.count - 1
        limits.totalBytes = StickFixture.png(seed: 1).count + 10
        let report = fixture.run(limits: limits)
        #expect(fixture.currentBackdrops() == ["a.png"])
        #expect(report.skippedTexts.contains("backdrop/backgrounds/b.png: \(big.count) bytes, over the limit of \(big.count - 1) bytes per file (not read)"))
        #expect(report.skippedTexts.contains { $0.hasPrefix("backdrop/backgrounds/c.png: would pass the limit of") }, "\(report.transcript)")
    }

    @Test func pixelDimensionsAreBounded() {
        let fixture = StickFixture(backdrops: ["wide.png": StickFixture.png(width: 300, height: 10), "ok.png": StickFixture.png()])
        var limits = ImportLimits()
        limits.pixelsPerSide = 200
        let report = fixture.run(limits: limits)
        #expect(fixture.currentBackdrops() == ["ok.png"])
        #expect(report.skippedTexts.contains("backdrop/backgrounds/wide.png: image is 300x10, over the limit of 200 per side and \(limits.pixels) pixels"))
    }

    @Test func aHugeSparseFileIsRefusedWithoutBeingRead() {
        let fixture = StickFixture(backdrops: ["ok.png": StickFixture.png()])
        let path = fixture.path("backgrounds/huge.png")
        let fd = bk_open_write_truncate(path)
        #expect(fd >= 0)
        // 64 GiB of nothing: reading it would take minutes and all memory; fstat says it is too big.
        #expect(ftruncate(fd, 64 << 30) == 0)
        _ = bk_close(fd)
        let report = fixture.run()
        #expect(report.outcome == .newGeneration("000001"))
        #expect(report.skippedTexts.contains("backdrop/backgrounds/huge.png: \(Int64(64) << 30) bytes, over the limit of 32 MiB per file (not read)"))
        #expect(fixture.currentBackdrops() == ["ok.png"])
        let config = fixture.path("backdrop.conf")
        let configFD = bk_open_write_truncate(config)
        #expect(ftruncate(configFD, 1 << 40) == 0)
        _ = bk_close(configFD)
        #expect(fixture.run().skippedTexts.contains { $0.hasPrefix("backdrop/backdrop.conf: \(Int64(1) << 40) bytes, over the limit of 64 KiB") })
    }

    @Test func hostileNamesAreSkippedAndPrintedHarmlessly() {
        let fixture = StickFixture(backdrops: ["ok.png": StickFixture.png()])
        let image = StickFixture.png(seed: 4)
        for name in ["-rf.png", ".hidden.png", "line\nbreak.png", "bell\u{7}.png", "back\\slash.png",
                     String(repeating: "x", count: 120) + ".png"] {
            fixture.put("backgrounds/" + name, image)
        }
        // Not UTF-8: "b\xFF.png".
        let bad: [CChar] = Array(fixture.path("backgrounds/b").utf8CString.dropLast()) + [CChar(bitPattern: 0xFF)] + Array(".png".utf8CString)
        let fd = bad.withUnsafeBufferPointer { bk_open_write_truncate($0.baseAddress) }
        image.withUnsafeBytes { _ = bk_write(fd, $0.baseAddress, $0.count) }
        _ = bk_close(fd)
        let report = fixture.run()
        #expect(fixture.currentBackdrops() == ["ok.png"], "\(report.transcript)")
        let skipped = report.skippedTexts
        #expect(skipped.contains("backdrop/backgrounds/-rf.png: name starts with \"-\""))
        #expect(skipped.contains("backdrop/backgrounds/.hidden.png: hidden file (name starts with \".\")"))
        #expect(skipped.contains("backdrop/backgrounds/line?break.png: name contains control characters"))
        #expect(skipped.contains("backdrop/backgrounds/bell?.png: name contains control characters"))
        #expect(skipped.contains("backdrop/backgrounds/back?slash.png: name contains a slash"))
        #expect(skipped.contains { $0.hasSuffix(": name longer than 100 bytes") && $0.contains("…") })
        #expect(skipped.contains("backdrop/backgrounds/b?.png: name is not valid UTF-8"))
        // Nothing printed carries a control character.
        for line in report.lines {
            #expect(!line.rendered.unicodeScalars.contains { $0.value < 0x20 }, "\(line.rendered)")
        }
    }

    @Test func fifosAndDeviceNodesAreNeverOpened() {
        let fixture = StickFixture(backdrops: ["ok.png": StickFixture.png()])
        #expect(mkfifo(fixture.path("backgrounds/pipe.png"), 0o644) == 0)
        #expect(mkfifo(fixture.path("backdrop.conf"), 0o644) == 0)
        // A device node needs CAP_MKNOD; /dev/null is major 1, minor 3 (makedev: 1 << 8 | 3).
        let madeDevice = mknod(fixture.path("backgrounds/null.png"), S_IFCHR | 0o644, dev_t(1 << 8 | 3)) == 0
        let report = fixture.run()
        // Had a fifo been opened for reading without O_NONBLOCK, this test would hang here.
        #expect(report.outcome == .newGeneration("000001"))
        #expect(report.skippedTexts.contains("backdrop/backgrounds/pipe.png: a fifo; backgrounds/ holds PNG and JPEG files only"))
        #expect(report.skippedTexts.contains("backdrop/backdrop.conf: a fifo, not a file; kept the current config"))
        if madeDevice {
            #expect(report.skippedTexts.contains("backdrop/backgrounds/null.png: a character device; backgrounds/ holds PNG and JPEG files only"))
        }
        #expect(fixture.currentBackdrops() == ["ok.png"])
    }

    @Test func theSameStickTwiceMakesNoNewGeneration() {
        let fixture = StickFixture(config: Self.goodConfig, backdrops: ["a.png": StickFixture.png(seed: 1), "b.png": StickFixture.png(seed: 2)])
        #expect(fixture.run().outcome == .newGeneration("000001"))
        let again = fixture.run()
        #expect(again.outcome == .unchanged("000001"), "\(again.transcript)")
        // Exit 0 is for a new generation only; the same stick again is 2, current unchanged.
        #expect(again.outcome.exitStatus == 2)
        #expect(fixture.generations() == ["000001"])
        #expect(fixture.previous() == nil)
        // One changed byte is a new generation.
        fixture.put("backgrounds/b.png", StickFixture.png(seed: 3))
        #expect(fixture.run().outcome == .newGeneration("000002"))
        // A removed backdrop too: the stick's set is the box's set.
        fixture.remove("backgrounds/a.png")
        #expect(fixture.run().outcome == .newGeneration("000003"))
        #expect(fixture.currentBackdrops() == ["b.png"])
        #expect(fixture.generations() == ["000002", "000003"])
    }

    @Test func theKeptPartsAreLinksNotCopies() throws {
        let fixture = StickFixture(config: Self.goodConfig, backdrops: ["a.png": StickFixture.png(seed: 1)])
        #expect(fixture.run().outcome == .newGeneration("000001"))
        fixture.remove("backgrounds")
        fixture.put("backdrop.conf", Array("[matte]\nfar_mm = 2600\n".utf8))
        #expect(fixture.run().outcome == .newGeneration("000002"))
        var first = stat()
        var second = stat()
        #expect(stat(fixture.data + "/generations/000001/backgrounds/a.png", &first) == 0)
        #expect(stat(fixture.data + "/generations/000002/backgrounds/a.png", &second) == 0)
        #expect(first.st_ino == second.st_ino)
        #expect(fixture.currentBackdrops() == ["a.png"])
    }

    @Test func rollbackSwapsCurrentAndPrevious() throws {
        let fixture = StickFixture(config: Self.goodConfig, backdrops: ["a.png": StickFixture.png(seed: 1)])
        #expect(fixture.run().outcome == .newGeneration("000001"))
        fixture.put("backgrounds/b.png", StickFixture.png(seed: 2))
        #expect(fixture.run().outcome == .newGeneration("000002"))
        let data = try DataFolder.open(fixture.data)
        let switched = try data.rollback()
        #expect(switched?.from == "000002" && switched?.to == "000001")
        #expect(fixture.current() == "generations/000001")
        #expect(fixture.previous() == "generations/000002")
        #expect(fixture.currentBackdrops() == ["a.png"])
        #expect(try data.rollback()?.to == "000002")

        let fresh = TemporaryDirectory("fresh")
        #expect(try DataFolder.open(fresh.file("data")).rollback() == nil)
    }

    @Test func leftoversOfAnInterruptedImportAreRemoved() throws {
        let fixture = StickFixture(backdrops: ["a.png": StickFixture.png(seed: 1)])
        #expect(fixture.run().outcome == .newGeneration("000001"))
        // A power cut while staging 000002 left its folder behind.
        #expect(bk_mkdir(fixture.data + "/generations/.staging-000002", 0o755) == 0)
        _ = fixture.box.write("data/generations/.staging-000002/half.png", [1, 2])
        fixture.put("backgrounds/b.png", StickFixture.png(seed: 2))
        let report = fixture.run()
        // The staged number never became a generation, so it is free again.
        #expect(report.outcome == .newGeneration("000002"), "\(report.transcript)")
        #expect(fixture.generations() == ["000001", "000002"])
        #expect(fixture.currentBackdrops() == ["a.png", "b.png"])
    }

    @Test(.enabled(if: SmallFilesystem.canMount, "mounting a small tmpfs needs root"))
    func aDataFolderThatFillsUpLeavesThePreviousGenerationCurrentAndWhole() throws {
        let disk = try #require(SmallFilesystem(bytes: 256 * 1024, label: "import-full"))
        let data = disk.path + "/data"
        let fixture = StickFixture(config: Self.goodConfig, backdrops: ["a.png": StickFixture.png(seed: 1)])
        #expect(fixture.run(data: data).outcome == .newGeneration("000001"))
        // Three backdrops of ~100 KB (noise compresses badly) cannot fit in what is left.
        for index in 0..<3 { fixture.put("backgrounds/noise-\(index).png", Self.noisePNG(seed: UInt32(index + 1))) }
        fixture.put("backdrop.conf", Array("[matte]\nfar_mm = 2700\n".utf8))
        let report = fixture.run(data: data)
        guard case .failed(let reason) = report.outcome else {
            Issue.record("expected a failure, got \(report.outcome): \(report.transcript)")
            return
        }
        #expect(reason.contains("No space left on device"), "\(reason)")
        #expect(report.outcome.exitStatus == 1)
        #expect(fixture.current(data: data) == "generations/000001")
        #expect(fixture.currentBackdrops(data: data) == ["a.png"])
        #expect(fixture.stored(Self.goodConfig, data: data))
        // The half-built generation is gone, so the space is free again.
        #expect(fixture.generations(data: data) == ["000001"])
    }

    /// A PNG of random pixels: about width * height * 3 bytes however it is compressed.
    static func noisePNG(seed: UInt32) -> [UInt8] {
        let width = 200, height = 170
        var state = seed &* 2654435761
        var pixels: [UInt8] = []
        for _ in 0..<(width * height * 3) {
            state = state &* 1664525 &+ 1013904223
            pixels.append(UInt8(truncatingIfNeeded: state >> 24))
        }
        return StickFixture.png(pixels: pixels, width: width, height: height)
    }
}

/// The service's view of the data folder.
@Suite struct CurrentGenerationTests {
    @Test func theStoredConfigNamesTheCurrentGenerationsBackdropsAndStaysValid() throws {
        let fixture = StickFixture(config: "[matte]\nfar_mm = 2500", backdrops: ["a.png": StickFixture.png()])
        #expect(fixture.run().outcome == .newGeneration("000001"))
        let text = try #require(fixture.currentConfig())
        let settings = try #require(Settings.parse(text, fileName: "stored").settings)
        #expect(settings.matte.farMM == 2500)
        #expect(settings.background.directory == fixture.data + "/current/backgrounds")
        // The same stick again still compares equal with the box's lines added.
        #expect(fixture.run().outcome == .unchanged("000001"))
    }

    @Test func resolvesTheCurrentGenerationAndPointsTheBackdropsAtIt() throws {
        let fixture = StickFixture(config: "[matte]\nfar_mm = 2500\n", backdrops: ["a.png": StickFixture.png()])
        #expect(try CurrentGeneration.resolve(data: fixture.box.path) == nil)
        #expect(fixture.run().outcome == .newGeneration("000001"))
        let current = try #require(try CurrentGeneration.resolve(data: fixture.data))
        #expect(current.name == "000001")
        #expect(current.backgroundsPath == fixture.data + "/generations/000001/backgrounds")
        let settings = try #require(try current.settings().settings)
        #expect(settings.matte.farMM == 2500)
        #expect(settings.background.directory == current.backgroundsPath)
    }
}
