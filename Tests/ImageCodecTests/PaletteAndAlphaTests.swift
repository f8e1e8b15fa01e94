import CSpng
import TestSupport
import Frames
import ImageCodec
import Testing

/// RGBA and palette PNGs (which Backdrop never writes but cameras' tools and people do) decode
/// to RGB24 with alpha dropped and palette indices expanded.
@Suite struct PaletteAndAlphaTests {
    /// Writes a 2x1 PNG of `colorType` with libspng directly; `samples` are the raw 8-bit samples.
    static func writePNG(_ directory: TemporaryDirectory, _ name: String, colorType: spng_color_type, samples: [UInt8], palette: [(UInt8, UInt8, UInt8)] = []) -> Bool {
        guard let context = spng_ctx_new(Int32(SPNG_CTX_ENCODER.rawValue)) else { return false }
        defer { spng_ctx_free(context) }
        _ = spng_set_option(context, SPNG_ENCODE_TO_BUFFER, 1)
        var ihdr = spng_ihdr(width: 2, height: 1, bit_depth: 8, color_type: UInt8(colorType.rawValue),
                             compression_method: 0, filter_method: 0, interlace_method: 0)
        guard spng_set_ihdr(context, &ihdr) == 0 else { return false }
        if !palette.isEmpty {
            var plte = spng_plte()
            plte.n_entries = UInt32(palette.count)
            withUnsafeMutableBytes(of: &plte.entries) { raw in
                for (index, entry) in palette.enumerated() {
                    raw[index * 4] = entry.0; raw[index * 4 + 1] = entry.1; raw[index * 4 + 2] = entry.2; raw[index * 4 + 3] = 255
                }
            }
            guard spng_set_plte(context, &plte) == 0 else { return false }
        }
        let status = samples.withUnsafeBytes {
            spng_encode_image(context, $0.baseAddress, $0.count, Int32(SPNG_FMT_PNG.rawValue), Int32(SPNG_ENCODE_FINALIZE.rawValue))
        }
        guard status == 0 else { return false }
        var length = 0
        var error: Int32 = 0
        guard let bytes = spng_get_png_buffer(context, &length, &error) else { return false }
        defer { free(bytes) }
        directory.write(name, raw: UnsafeRawBufferPointer(start: bytes, count: length))
        return true
    }

    @Test func rgbaDropsAlpha() throws {
        let directory = TemporaryDirectory("codec")
        let path = directory.file("rgba.png")
        #expect(Self.writePNG(directory, "rgba.png", colorType: SPNG_COLOR_TYPE_TRUECOLOR_ALPHA, samples: [10, 20, 30, 0, 40, 50, 60, 255]))
        let decoded = try ImageDecoder().decode(path: path)
        #expect(decoded.format == .rgb24 && decoded.size == FrameSize(width: 2, height: 1))
        let bytes = (0..<6).map { decoded.row(0).load(fromByteOffset: $0, as: UInt8.self) }
        #expect(bytes == [10, 20, 30, 40, 50, 60])
    }

    @Test func paletteExpands() throws {
        let directory = TemporaryDirectory("codec")
        let path = directory.file("palette.png")
        #expect(Self.writePNG(directory, "palette.png", colorType: SPNG_COLOR_TYPE_INDEXED, samples: [1, 0],
                              palette: [(200, 100, 50), (1, 2, 3)]))
        let decoded = try ImageDecoder().decode(path: path)
        let bytes = (0..<6).map { decoded.row(0).load(fromByteOffset: $0, as: UInt8.self) }
        #expect(bytes == [1, 2, 3, 200, 100, 50])
    }
}
