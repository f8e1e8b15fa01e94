import Testing
@testable import Looks

@Suite struct SpatialPassTests {
    /// A 9x5 image, one bright pixel, through `steps`.
    static func image(_ steps: [LookStep]) -> [UInt32] {
        var pixels = [UInt32](repeating: 0x0000_0000, count: 45)
        pixels[2 * 9 + 4] = 0x00FF_FFFF
        pixels.withUnsafeMutableBytes { SpatialPass.apply(steps, to: $0.baseAddress!, width: 9, height: 5, rowBytes: 36) }
        return pixels
    }

    @Test func blurSpreadsAndKeepsTheTotal() {
        let out = Self.image([.blur(radius: 1)])
        #expect(out[2 * 9 + 4] & 0xFF < 255)
        #expect(out[2 * 9 + 5] & 0xFF > 0 && out[3 * 9 + 4] & 0xFF > 0)
        // The mean is kept to rounding: three box passes each way, each rounding once per pixel.
        let total = out.reduce(0) { $0 + Int($1 & 0xFF) }
        #expect(abs(total - 255) <= 45)
        // Symmetric about the bright pixel.
        #expect(out[2 * 9 + 3] == out[2 * 9 + 5] && out[1 * 9 + 4] == out[3 * 9 + 4])
    }

    @Test func pixellateFillsBlocksWithTheirMean() {
        let out = Self.image([.pixellate(size: 3)])
        // The block x 3..<6, y 0..<3 holds the bright pixel: 255 / 9, rounded.
        let mean = UInt32((255 + 4) / 9)
        for y in 0..<3 { for x in 3..<6 { #expect(out[y * 9 + x] == mean | mean << 8 | mean << 16) } }
        #expect(out[0] == 0 && out[4 * 9 + 8] == 0)
    }
}
