import CTurboJPEG
import Frames
import ImageCodec
import TestSupport
import Testing

/// CMYK JPEGs come from print workflows; libturbojpeg only decodes them to CMYK pixels, and the
/// decoder turns those into RGB instead of refusing the file.
@Suite struct CMYKJPEGTests {
    /// Encodes `pixels` (C, M, Y, K per pixel, Adobe's inverted convention: 255 = no ink) as a
    /// YCCK JPEG the way libjpeg-turbo writes CMYK, with the Adobe marker.
    static func cmykJPEG(width: Int, height: Int, pixels: [UInt8]) -> [UInt8] {
        guard let handle = tjInitCompress() else { return [] }
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>? = nil
        var length: UInt = 0
        let status = pixels.withUnsafeBufferPointer { input in
            tjCompress2(handle, input.baseAddress, Int32(width), Int32(width * 4), Int32(height),
                        Int32(TJPF_CMYK.rawValue), &output, &length, Int32(TJSAMP_444.rawValue), 100, 0)
        }
        defer { if let output { tjFree(output) } }
        guard status == 0, let output else { return [] }
        return Array(UnsafeBufferPointer(start: output, count: Int(length)))
    }

    @Test func cmykJPEGDecodesToTheColoursItsInkMeans() throws {
        let directory = TemporaryDirectory("cmyk")
        let width = 16, height = 8
        var pixels: [UInt8] = []
        for _ in 0..<height {
            // Left half: no cyan or black, full magenta and yellow: red. Right half: half black: grey.
            for x in 0..<width { pixels += x < width / 2 ? [255, 0, 0, 255] : [255, 255, 255, 128] }
        }
        let bytes = Self.cmykJPEG(width: width, height: height, pixels: pixels)
        #expect(!bytes.isEmpty)
        let path = directory.write("print.jpg", bytes)
        let decoded = try ImageDecoder().decode(path: path)
        #expect(decoded.format == .rgb24 && decoded.size == FrameSize(width: width, height: height))
        let row = decoded.row(height / 2).assumingMemoryBound(to: UInt8.self)
        let red = (row[6], row[7], row[8]), grey = (row[3 * 12], row[3 * 12 + 1], row[3 * 12 + 2])
        // Quality 100 at 4:4:4 still rounds in the colour transform: a few levels either way.
        #expect(red.0 > 245 && red.1 < 10 && red.2 < 10, "red came out as \(red)")
        #expect(abs(Int(grey.0) - 128) < 6 && abs(Int(grey.1) - 128) < 6 && abs(Int(grey.2) - 128) < 6,
                "grey came out as \(grey)")
    }
}
