import CKernel
@_spi(Testing) import Frames
import Glibc
import ImageCodec
import Import
import KernelIO
import TestSupport
import Testing

/// A stick (a folder with `backdrop/` in it) and a data folder, side by side, for one test.
final class StickFixture {
    let stick = TemporaryDirectory("stick")
    let box = TemporaryDirectory("box")
    var data: String { box.path + "/data" }

    init(config: String? = nil, backdrops: [String: [UInt8]]? = nil) {
        precondition(bk_mkdir(stick.file("backdrop"), 0o755) == 0)
        if let config { put("backdrop.conf", Array(config.utf8)) }
        if let backdrops {
            makeFolder("backgrounds")
            for (name, bytes) in backdrops { put("backgrounds/" + name, bytes) }
        }
    }

    /// A file under the stick's `backdrop/`.
    func put(_ relative: String, _ bytes: [UInt8]) { _ = stick.write("backdrop/" + relative, bytes) }
    func makeFolder(_ relative: String) { precondition(bk_mkdir(stick.file("backdrop/" + relative), 0o755) == 0) }
    func remove(_ relative: String) { TemporaryDirectory.removeTree(stick.file("backdrop/" + relative)); _ = bk_unlink(stick.file("backdrop/" + relative)) }
    func path(_ relative: String) -> String { stick.file("backdrop/" + relative) }

    func run(limits: ImportLimits = .standard, data: String? = nil) -> ImportReport {
        var options = StickImport.Options(stick: stick.path)
        options.data = data ?? self.data
        options.baseConfig = nil
        options.limits = limits
        return StickImport.run(options)
    }

    /// The config generation 1 holds in `overAFirstGeneration`.
    static let firstConfig = "[matte]\nfar_mm = 2500\n"

    /// A box with generation 1 (a.png, `firstConfig`) and a stick that now brings more: a config
    /// and four backdrops, so an interrupted import has something to leave half done.
    static func overAFirstGeneration() -> StickFixture {
        let fixture = StickFixture(config: firstConfig, backdrops: ["a.png": png(seed: 1)])
        #expect(fixture.run().outcome == .newGeneration("000001"))
        fixture.put("backdrop.conf", Array("[matte]\nfar_mm = 2600\n".utf8))
        for (index, name) in ["b.png", "c.png", "d.png", "e.png"].enumerated() {
            fixture.put("backgrounds/" + name, png(seed: UInt8(10 + index)))
        }
        return fixture
    }

    // MARK: what the data folder holds

    func current(data: String? = nil) -> String? { link("current", data: data) }
    func previous(data: String? = nil) -> String? { link("previous", data: data) }

    private func link(_ name: String, data: String?) -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        let length = readlink((data ?? self.data) + "/" + name, &buffer, 255)
        guard length > 0 else { return nil }
        return String(cString: buffer)
    }

    func currentBackdrops(data: String? = nil) -> [String] {
        do throws(SystemError) {
            return try DirectoryDescriptor.open((data ?? self.data) + "/current/backgrounds").entries().names.sorted()
        } catch { return [] }
    }

    func currentConfig(data: String? = nil) -> String? {
        do throws(SystemError) { return try WholeFile.text((data ?? self.data) + "/current/backdrop.conf") } catch { return nil }
    }

    /// The current config is the stick's `text` with the box's backdrop-folder lines after it.
    func stored(_ text: String, data: String? = nil) -> Bool {
        guard let config = currentConfig(data: data) else { return false }
        return config.hasPrefix(text) && config.hasSuffix("directory = \(data ?? self.data)/current/backgrounds\n")
    }

    func generations(data: String? = nil) -> [String] {
        do throws(SystemError) {
            return try DirectoryDescriptor.open((data ?? self.data) + "/generations").entries().names.sorted()
        } catch { return [] }
    }

    // MARK: images

    /// A small PNG of one colour; `seed` changes the pixels so two images differ.
    static func png(width: Int = 32, height: Int = 24, seed: UInt8 = 0) -> [UInt8] {
        let image = PixelBuffer(format: .rgb24, size: FrameSize(width: width, height: height))
        for y in 0..<height {
            let row = image.row(y).assumingMemoryBound(to: UInt8.self)
            for x in 0..<(width * 3) { row[x] = UInt8(truncatingIfNeeded: x &+ y &+ Int(seed) &* 7) }
        }
        do throws(ImageError) { return try PNGEncoder.encode(image.view) } catch { fatalError(error.message) }
    }

    static func jpeg(width: Int = 64, height: Int = 48) -> [UInt8] {
        let image = PixelBuffer(format: .rgb24, size: FrameSize(width: width, height: height))
        do throws(ImageError) { return try JPEGEncoder.encode(image.view) } catch { fatalError(error.message) }
    }
}

extension ImportReport {
    var skippedTexts: [String] { lines.filter { $0.kind == .skipped }.map { $0.text } }
    var takenTexts: [String] { lines.filter { $0.kind == .taken }.map { $0.text } }
    func says(_ fragment: String) -> Bool { lines.contains { $0.text.contains(fragment) } }
    var transcript: String { lines.map { $0.rendered }.joined(separator: "\n") }
}

extension StickFixture {
    /// A PNG of exactly these RGB pixels.
    static func png(pixels: [UInt8], width: Int, height: Int) -> [UInt8] {
        let image = PixelBuffer(format: .rgb24, size: FrameSize(width: width, height: height))
        for y in 0..<height {
            let row = image.row(y).assumingMemoryBound(to: UInt8.self)
            for x in 0..<(width * 3) { row[x] = pixels[y * width * 3 + x] }
        }
        do throws(ImageError) { return try PNGEncoder.encode(image.view) } catch { fatalError(error.message) }
    }
}
