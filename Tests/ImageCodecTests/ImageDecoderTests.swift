@_spi(Testing) import Frames
import TestSupport
import ImageCodec
import Testing

@Suite struct ImageDecoderTests {
    static let dataRoot: String = {
        // #filePath is .../Tests/ImageCodecTests/<file>; the shared data sits beside the package.
        let parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        return parts.dropLast(3).joined(separator: "/") + "/../shared/data/rgbd"
    }()

    static func pattern(_ format: PixelFormat, _ size: FrameSize) -> PixelBuffer {
        let buffer = PixelBuffer(format: format, size: size)
        for y in 0..<size.height {
            let row = buffer.row(y).assumingMemoryBound(to: UInt8.self)
            for x in 0..<size.width * format.bytesPerPixel { row[x] = UInt8(truncatingIfNeeded: x * 7 + y * 13) }
        }
        return buffer
    }

    @Test func rgbRoundTripsThroughPNGExactly() throws {
        let directory = TemporaryDirectory("codec")
        let size = FrameSize(width: 37, height: 11)
        let source = Self.pattern(.rgb24, size)
        let path = directory.file("rgb.png")
        try PNGEncoder.write(source.view, to: path)
        let decoder = ImageDecoder()
        let header = try decoder.header(path: path)
        #expect(header == ImageHeader(container: .png, size: size, naturalFormat: .rgb24, isGrey8: false))
        let decoded = try decoder.decode(path: path)
        #expect(decoded.format == .rgb24)
        for y in 0..<size.height {
            for x in 0..<size.width * 3 {
                #expect(decoded.row(y).load(fromByteOffset: x, as: UInt8.self)
                        == source.row(y).load(fromByteOffset: x, as: UInt8.self))
            }
        }
    }

    @Test func depthRoundTripsAsSixteenBitGrey() throws {
        let directory = TemporaryDirectory("codec")
        let size = FrameSize(width: 5, height: 3)
        let depth = PixelBuffer(format: .z16, size: size)
        for y in 0..<3 {
            for x in 0..<5 { depth.row(y).storeBytes(of: UInt16(x * 1000 + y * 17 + 256), toByteOffset: x * 2, as: UInt16.self) }
        }
        let path = directory.file("depth.png")
        try PNGEncoder.write(depth.view, to: path)
        let decoder = ImageDecoder()
        #expect(try decoder.header(path: path).naturalFormat == .z16)
        // Decode into a caller-owned view with a wider stride than the image.
        let target = PixelBuffer(format: .z16, size: size, rowAlignment: 256)
        try decoder.decode(path: path, into: target.view)
        for y in 0..<3 {
            for x in 0..<5 {
                #expect(target.row(y).load(fromByteOffset: x * 2, as: UInt16.self) == UInt16(x * 1000 + y * 17 + 256))
            }
        }
        // A depth view must not accept a colour file.
        let colour = directory.file("colour.png")
        let colourImage = Self.pattern(.rgb24, size)
        try PNGEncoder.write(colourImage.view, to: colour)
        #expect(throws: ImageError.self) { try decoder.decode(path: colour, into: target.view) }
    }

    @Test func xrgbAndGreyEncodeAsPNG() throws {
        let directory = TemporaryDirectory("codec")
        let size = FrameSize(width: 4, height: 2)
        let xrgb = PixelBuffer(format: .xrgb8888, size: size)
        for y in 0..<2 {
            for x in 0..<4 { xrgb.row(y).storeBytes(of: 0xFF10_2030 &+ UInt32(x), toByteOffset: x * 4, as: UInt32.self) }
        }
        let path = directory.file("x.png")
        try PNGEncoder.write(xrgb.view, to: path)
        let decoded = try ImageDecoder().decode(path: path)
        #expect(decoded.row(1).load(fromByteOffset: 3 * 3, as: UInt8.self) == 0x10)      // R
        #expect(decoded.row(1).load(fromByteOffset: 3 * 3 + 1, as: UInt8.self) == 0x20)  // G
        #expect(decoded.row(1).load(fromByteOffset: 3 * 3 + 2, as: UInt8.self) == 0x33)  // B

        let grey = Self.pattern(.alpha8, size)
        let greyPath = directory.file("g.png")
        try PNGEncoder.write(grey.view, to: greyPath)
        let decoder = ImageDecoder()
        #expect(try decoder.header(path: greyPath).isGrey8)
        let alpha = PixelBuffer(format: .alpha8, size: size)
        try decoder.decode(path: greyPath, into: alpha.view)
        #expect(alpha.row(1).load(fromByteOffset: 2, as: UInt8.self) == grey.row(1).load(fromByteOffset: 2, as: UInt8.self))
        // Grey expands to equal RGB channels when decoded as colour.
        let rgb = try decoder.decode(path: greyPath)
        let value = grey.row(1).load(fromByteOffset: 3, as: UInt8.self)
        #expect(rgb.row(1).load(fromByteOffset: 9, as: UInt8.self) == value)
        #expect(rgb.row(1).load(fromByteOffset: 11, as: UInt8.self) == value)
    }

    @Test func jpegDecodesCloseToTheOriginal() throws {
        let directory = TemporaryDirectory("codec")
        let size = FrameSize(width: 32, height: 16)
        let flat = PixelBuffer(format: .rgb24, size: size)
        for y in 0..<16 {
            for x in 0..<32 {
                flat.row(y).storeBytes(of: 200, toByteOffset: x * 3, as: UInt8.self)
                flat.row(y).storeBytes(of: 100, toByteOffset: x * 3 + 1, as: UInt8.self)
                flat.row(y).storeBytes(of: 50, toByteOffset: x * 3 + 2, as: UInt8.self)
            }
        }
        let path = directory.write("photo.jpg", try JPEGEncoder.encode(flat.view, quality: 95))
        let decoder = ImageDecoder()
        #expect(try decoder.header(path: path).container == .jpeg)
        let decoded = try decoder.decode(path: path)
        #expect(decoded.size == size)
        for (offset, expected) in [(0, 200), (1, 100), (2, 50)] {
            let got = Int(decoded.row(7).load(fromByteOffset: 10 * 3 + offset, as: UInt8.self))
            #expect(abs(got - expected) <= 3)
        }
    }

    @Test func largeJPEGDecodesReducedButStillCoveringTheTarget() throws {
        let directory = TemporaryDirectory("codec")
        let image = Self.pattern(.rgb24, FrameSize(width: 64, height: 48))
        let path = directory.write("big.jpg", try JPEGEncoder.encode(image.view))
        let decoder = ImageDecoder()
        #expect(try decoder.decode(path: path, covering: FrameSize(width: 16, height: 12)).size == FrameSize(width: 16, height: 12))
        let reduced = try decoder.decode(path: path, covering: FrameSize(width: 20, height: 12))
        #expect(reduced.size.width >= 20 && reduced.size.height >= 12 && reduced.size.width < 64)
        #expect(try decoder.decode(path: path, covering: FrameSize(width: 100, height: 100)).size == FrameSize(width: 64, height: 48))
        // PNGs are not reduced.
        try PNGEncoder.write(image.view, to: directory.file("big.png"))
        #expect(try decoder.decode(path: directory.file("big.png"), covering: FrameSize(width: 16, height: 12)).size.width == 64)
    }

    @Test func formatIsDecidedBySignatureNotName() throws {
        let directory = TemporaryDirectory("codec")
        let size = FrameSize(width: 8, height: 8)
        let image = Self.pattern(.rgb24, size)
        let jpegNamedPNG = directory.write("really-a-jpeg.png", try JPEGEncoder.encode(image.view))
        #expect(try ImageDecoder().header(path: jpegNamedPNG).container == .jpeg)
        let text = directory.write("notes.png", Array("hello, not an image\n".utf8))
        do {
            _ = try ImageDecoder().decode(path: text)
            Issue.record("text decoded as an image")
        } catch {
            guard case .unsupportedFormat = error else { Issue.record("wrong error \(error.message)"); return }
            #expect(error.message.contains("notes.png"))
        }
        let empty = directory.write("empty.jpg", [])
        #expect(throws: ImageError.unsupportedFormat(path: empty, detail: "the file is empty")) {
            try ImageDecoder().decode(path: empty)
        }
    }

    @Test func missingFileNamesThePathAndReason() {
        do {
            _ = try ImageDecoder().decode(path: "/nonexistent/backdrop/none.png")
            Issue.record("decoded a missing file")
        } catch {
            guard case .unreadable = error else { Issue.record("wrong error \(error.message)"); return }
            #expect(error.message.contains("/nonexistent/backdrop/none.png"))
            #expect(error.message.contains("No such file"))
        }
    }

    @Test func truncatedFilesAreReportedWithTheDecodersReason() throws {
        let directory = TemporaryDirectory("codec")
        let size = FrameSize(width: 64, height: 64)
        let image = Self.pattern(.rgb24, size)
        let png = try PNGEncoder.encode(image.view)
        let cutPNG = directory.write("cut.png", Array(png.prefix(png.count / 2)))
        let jpeg = try JPEGEncoder.encode(image.view)
        let cutJPEG = directory.write("cut.jpg", Array(jpeg.prefix(jpeg.count / 2)))
        for path in [cutPNG, cutJPEG] {
            do {
                _ = try ImageDecoder().decode(path: path)
                Issue.record("decoded truncated \(path)")
            } catch {
                guard case .corrupt(_, let detail) = error else { Issue.record("wrong error \(error.message)"); continue }
                #expect(detail.hasPrefix("libspng") || detail.hasPrefix("libturbojpeg"))
            }
        }
    }

    @Test func hugeImageIsRefusedFromItsHeader() throws {
        let directory = TemporaryDirectory("codec")
        // A valid 1x1 PNG whose IHDR is then rewritten to claim 20000x20000 (with a fixed CRC):
        // a few dozen bytes that would need 1.2 GB if the decoder believed them.
        let pixel = PixelBuffer(format: .rgb24, size: FrameSize(width: 1, height: 1))
        var bytes = try PNGEncoder.encode(pixel.view)
        for (index, byte) in [UInt8(0), 0, 0x4E, 0x20, 0, 0, 0x4E, 0x20].enumerated() { bytes[16 + index] = byte }
        let crc = crc32(Array(bytes[12..<29]))
        for index in 0..<4 { bytes[29 + index] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * UInt32(index))) }
        let path = directory.write("huge.png", bytes)
        #expect(throws: ImageError.tooLarge(path: path, width: 20000, height: 20000)) {
            try ImageDecoder().decode(path: path)
        }
        #expect(ImageError.tooLarge(path: path, width: 20000, height: 20000).message.contains("20000x20000"))
    }

    @Test func realRecordingFramesDecode() throws {
        let depthPath = Self.dataRoot + "/pcl_five_people/depth/000000.png"
        let colourPath = Self.dataRoot + "/pcl_five_people/color/000000.png"
        let decoder = ImageDecoder()
        guard (try? decoder.header(path: depthPath)) != nil else {
            print("skipped: \(Self.dataRoot) not present (shared RGB-D examples are outside the repository)")
            return
        }
        let depth = try decoder.decode(path: depthPath)
        #expect(depth.format == .z16)
        #expect(depth.size == FrameSize(width: 640, height: 480))
        // Sensor depth in millimetres: a real reading in the middle of the corridor is metres away.
        var readings = 0
        var sum = 0
        for x in 0..<640 {
            let value = Int(depth.row(240).load(fromByteOffset: x * 2, as: UInt16.self))
            if value > 0 { readings += 1; sum += value }
        }
        #expect(readings > 100)
        #expect((500...10000).contains(sum / max(readings, 1)))
        let colour = try decoder.decode(path: colourPath)
        #expect(colour.format == .rgb24 && colour.size == depth.size)
    }
}

/// PNG's CRC-32 (ISO 3309), only to forge a header in a test.
func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
}
