import CKernel
import Glibc
import Import
import KernelIO
import TestSupport
import Testing

/// One stick full of what a hostile or careless stick holds, every item in one `backgrounds/`:
/// links out of the stick (to decoy folders this test made in its own temporary folder), a fifo,
/// a huge sparse file, empty and truncated images, a PNG whose header declares enormous
/// dimensions, names that are not UTF-8, carry a newline or are 255 bytes long, macOS and Windows
/// litter, a deep tree, garbage bytes, a binary `backdrop.conf`, and hundreds of good images past
/// the documented bound of 64 backdrops. Each item gets its line with its reason, the exit status
/// is the contract's, and the box holds exactly what the contract says.
@Suite struct HostileStickTests {
    /// A PNG of only a signature and an IHDR declaring `width` x `height` (valid CRC): a decoder
    /// that allocated from the header alone would ask for width * height * 4 bytes.
    static func pngDeclaring(width: UInt32, height: UInt32) -> [UInt8] {
        var chunk: [UInt8] = Array("IHDR".utf8)
        for value in [width, height] { chunk += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        chunk += [8, 6, 0, 0, 0]
        let crc = crc32(chunk)
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + chunk
            + [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// Bytes that are neither an image nor text, the same every run.
    static func garbage(_ count: Int, seed: UInt32) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 1_103_515_245 &+ 12345
            return UInt8(truncatingIfNeeded: state >> 16)
        }
    }

    static let goodCount = 300

    @Test func everyItemGetsItsLineAndTheBoxGetsOnlyWhatIsGood() throws {
        let decoy = TemporaryDirectory("decoy")
        let secret = StickFixture.png(seed: 99)
        _ = decoy.write("secret.png", secret)
        #expect(bk_mkdir(decoy.file("folder"), 0o755) == 0)
        _ = decoy.write("folder/inside.png", secret)

        let fixture = StickFixture(backdrops: [:])
        fixture.put("backdrop.conf", Self.garbage(3000, seed: 7))
        let folder = fixture.path("backgrounds")
        #expect(symlink(decoy.file("secret.png"), folder + "/link-out.png") == 0)
        #expect(symlink(decoy.file("folder"), folder + "/link-dir") == 0)
        #expect(symlink("../../../../../../../../tmp", folder + "/link-up.png") == 0)
        #expect(mkfifo(folder + "/pipe.png", 0o644) == 0)
        let huge = bk_open_write_truncate(folder + "/huge.png")
        #expect(ftruncate(huge, 40 << 30) == 0)
        _ = bk_close(huge)
        fixture.put("backgrounds/empty.png", [])
        fixture.put("backgrounds/empty.jpg", [])
        fixture.put("backgrounds/cut.png", Array(StickFixture.png(width: 64, height: 64, seed: 3).prefix(90)))
        let jpeg = StickFixture.jpeg(width: 256, height: 256)
        fixture.put("backgrounds/cut.jpg", Array(jpeg.prefix(jpeg.count / 3)))
        fixture.put("backgrounds/giant.png", Self.pngDeclaring(width: 100_000, height: 100_000))
        fixture.put("backgrounds/wide.png", Self.pngDeclaring(width: 20_000, height: 1))
        fixture.put("backgrounds/garbage.png", Self.garbage(5000, seed: 3))
        fixture.put("backgrounds/new\nline.png", StickFixture.png(seed: 5))
        let longName = String(repeating: "x", count: 251) + ".png"
        fixture.put("backgrounds/" + longName, StickFixture.png(seed: 6))
        fixture.put("backgrounds/._x.png", [0, 5, 22, 7])
        fixture.put("backgrounds/.DS_Store", Self.garbage(600, seed: 1))
        fixture.put("backgrounds/Thumbs.db", Self.garbage(600, seed: 2))
        var deep = folder + "/deep"
        for _ in 0..<60 {
            #expect(bk_mkdir(deep, 0o755) == 0)
            deep += "/d"
        }
        _ = bk_mkdir(deep, 0o755)
        let notUTF8: [CChar] = Array((folder + "/b").utf8CString.dropLast()) + [CChar(bitPattern: 0xFF)] + Array(".png".utf8CString)
        let fd = notUTF8.withUnsafeBufferPointer { bk_open_write_truncate($0.baseAddress) }
        StickFixture.png(seed: 8).withUnsafeBytes { _ = bk_write(fd, $0.baseAddress, $0.count) }
        _ = bk_close(fd)
        defer { _ = notUTF8.withUnsafeBufferPointer { unlink($0.baseAddress!) } }
        let goods = (0..<Self.goodCount).map { "zz-" + String(1000 + $0).dropFirst() + ".png" }
        for (index, name) in goods.enumerated() {
            fixture.put("backgrounds/" + name, StickFixture.png(width: 8, height: 8, seed: UInt8(truncatingIfNeeded: index)))
        }

        let report = fixture.run()
        let skipped = report.skippedTexts
        let label = "backdrop/backgrounds/"
        func says(_ item: String, _ reason: String, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(skipped.contains(label + item + ": " + reason), "\(item): \(skipped.filter { $0.hasPrefix(label + item) })",
                    sourceLocation: sourceLocation)
        }
        let onlyImages = "backgrounds/ holds PNG and JPEG files only"
        says("link-out.png", "a symlink (not followed); " + onlyImages)
        says("link-dir", "a symlink (not followed); " + onlyImages)
        says("link-up.png", "a symlink (not followed); " + onlyImages)
        says("pipe.png", "a fifo; " + onlyImages)
        says("huge.png", "\(Int64(40) << 30) bytes, over the limit of 32 MiB per file (not read)")
        says("empty.png", "the file is empty")
        says("empty.jpg", "the file is empty")
        #expect(skipped.contains { $0.hasPrefix(label + "cut.png: corrupt or truncated image") }, "\(skipped.filter { $0.contains("cut.png") })")
        #expect(skipped.contains { $0.hasPrefix(label + "cut.jpg: corrupt or truncated image") }, "\(skipped.filter { $0.contains("cut.jpg") })")
        says("giant.png", "image is 100000x100000, over the limit of 16384 per side and 67108864 pixels")
        says("wide.png", "image is 20000x1, over the limit of 16384 per side and 67108864 pixels")
        says("garbage.png", "not a PNG or JPEG")
        says("new?line.png", "name contains control characters")
        #expect(skipped.contains { $0.hasPrefix(label + "xxxxxxxx") && $0.hasSuffix("…: name longer than 100 bytes") })
        says("._x.png", "hidden file (name starts with \".\")")
        says(".DS_Store", "hidden file (name starts with \".\")")
        says("Thumbs.db", "not a PNG or JPEG (.png, .jpg, .jpeg)")
        says("deep", "a folder; " + onlyImages)
        says("b?.png", "name is not valid UTF-8")
        #expect(skipped.contains("config refused: backdrop/backdrop.conf: not UTF-8 text; save it as UTF-8 (plain text)"),
                "\(skipped.filter { $0.hasPrefix("config") })")
        for name in goods.dropFirst(64) { says(name, "the limit of 64 backdrops is reached") }
        let items = 19 + (Self.goodCount - 64) + 1
        #expect(report.skippedItems == items, "\(report.transcript)")
        #expect(report.takenTexts.count == 64)

        // The contract: a new generation with the good images that fit, the refused config's
        // place taken by the defaults (first import), nothing of the decoys.
        #expect(report.outcome == .newGeneration("000001"))
        #expect(report.outcome.exitStatus == 0)
        #expect(report.screenText == "64 BACKDROPS IN, CONFIG REFUSED, \(items) SKIPPED")
        #expect(fixture.currentBackdrops() == Array(goods.prefix(64)))
        let config = fixture.currentConfig() ?? ""
        #expect(config.hasPrefix("# No config has come from a stick yet"), "\(config)")
        #expect(fixture.generations() == ["000001"])
        #expect(try DirectoryDescriptor.open(decoy.path).entries().names.sorted() == ["folder", "secret.png"])
        #expect(try WholeFile.bytes(decoy.file("secret.png")) == secret)
        // Nothing printed or shown carries a control character.
        for line in report.lines { #expect(!line.rendered.unicodeScalars.contains { $0.value < 0x20 }, "\(line.rendered)") }
    }

    /// Found by the import fuzzer: the parser quotes an unknown key as it came, control bytes too.
    @Test func controlBytesInAConfigAreEscapedInTheLines() {
        let unknownKey = StickFixture(config: "[matte]\nfar_m\u{4}\u{8}lg = 2\n", backdrops: ["a.png": StickFixture.png(seed: 1)])
        let warned = unknownKey.run()
        #expect(warned.outcome == .newGeneration("000001"))
        #expect(warned.lines.contains { $0.text.hasPrefix("warning: ") && $0.text.contains("far_m\\x04\\x08lg") }, "\(warned.transcript)")
        let badValue = StickFixture(config: "[matte]\nfar_mm = 9\u{1B}[2J\n", backdrops: ["a.png": StickFixture.png(seed: 1)])
        let refused = badValue.run()
        #expect(refused.skippedTexts.contains { $0.contains("far_mm = 9\\x1b[2J") }, "\(refused.transcript)")
        for line in warned.lines + refused.lines {
            #expect(!line.rendered.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "\(line.rendered)")
        }
    }

    @Test func aStickOfWrongKindsOnlyIsNothingUsableAndChangesNothing() throws {
        let fixture = StickFixture(config: "[matte]\nfar_mm = 2500\n", backdrops: ["a.png": StickFixture.png(seed: 1)])
        #expect(fixture.run().outcome == .newGeneration("000001"))
        let decoy = TemporaryDirectory("decoy")
        _ = decoy.write("box.conf", Array("[matte]\nfar_mm = 3000\n".utf8))
        fixture.remove("backgrounds")
        fixture.remove("backdrop.conf")
        fixture.put("backgrounds", StickFixture.png(seed: 2))
        #expect(symlink(decoy.file("box.conf"), fixture.path("backdrop.conf")) == 0)
        let report = fixture.run()
        #expect(report.outcome == .nothingUsable, "\(report.transcript)")
        #expect(report.outcome.exitStatus == 2)
        #expect(report.skippedTexts.contains("backdrop/backgrounds: a file, not a folder; kept the current backdrops"))
        #expect(report.skippedTexts.contains("backdrop/backdrop.conf: a symlink, not a file; kept the current config"))
        #expect(report.screenText == "STICK: NOTHING USABLE, 2 SKIPPED - OLD SET KEPT")
        #expect(fixture.current() == "generations/000001")
        #expect(fixture.currentBackdrops() == ["a.png"])
        #expect(fixture.stored("[matte]\nfar_mm = 2500\n"))
        #expect(fixture.generations() == ["000001"])

        // backdrop/ itself a file.
        fixture.remove("backgrounds")
        fixture.remove("backdrop.conf")
        TemporaryDirectory.removeTree(fixture.stick.file("backdrop"))
        _ = fixture.stick.write("backdrop", Self.garbage(100, seed: 4))
        let flat = fixture.run()
        #expect(flat.outcome == .nothingUsable)
        #expect(flat.skippedTexts == ["backdrop: a file, not a folder"])
        #expect(fixture.current() == "generations/000001")
    }
}
