@testable import Compose
@testable import Frames
import Testing

@Suite struct PixelMathTests {
    /// The exact BT.601 limited-range formula, clamped.
    static func exact(_ y: Int, _ cb: Int, _ cr: Int) -> (Double, Double, Double) {
        let luma = Double(y - 16) * 255 / 219
        let scale = 255.0 / 224
        let u = Double(cb - 128) * scale
        let v = Double(cr - 128) * scale
        func clamp(_ value: Double) -> Double { min(max(value, 0), 255) }
        return (clamp(luma + 1.402 * v),
                clamp(luma - 0.114 * 1.772 / 0.587 * u - 0.299 * 1.402 / 0.587 * v),
                clamp(luma + 1.772 * u))
    }

    @Test func integerConversionIsWithinOneLevelOfTheFormula() {
        var worst = 0.0
        // Every luma against a dense chroma grid that includes both ends of the byte range.
        for y in 0..<256 {
            for cb in stride(from: 0, through: 255, by: 5) {
                for cr in stride(from: 0, through: 255, by: 5) {
                    let got = YCbCr.rgb(y: Int32(y), cb: Int32(cb), cr: Int32(cr))
                    let want = Self.exact(y, cb, cr)
                    worst = max(worst, abs(Double(got.r) - want.0), abs(Double(got.g) - want.1), abs(Double(got.b) - want.2))
                }
            }
        }
        #expect(worst < 1.0)
    }

    @Test func vectorConversionMatchesScalar() {
        for y in stride(from: 0, to: 256, by: 16) {
            for cb in stride(from: 0, through: 255, by: 3) {
                for cr in stride(from: 0, through: 255, by: 7) {
                    var luma = SIMD16<Int16>()
                    for lane in 0..<16 { luma[lane] = Int16(y + lane) }
                    let vector = YCbCr.rgb(y: luma, cb: SIMD16(repeating: Int16(cb)), cr: SIMD16(repeating: Int16(cr)))
                    for lane in 0..<16 {
                        let scalar = YCbCr.rgb(y: Int32(y + lane), cb: Int32(cb), cr: Int32(cr))
                        #expect(Int32(vector.r[lane]) == scalar.r && Int32(vector.g[lane]) == scalar.g
                                && Int32(vector.b[lane]) == scalar.b)
                    }
                }
            }
        }
    }

    @Test func knownColours() {
        #expect(YCbCr.rgb(y: 16, cb: 128, cr: 128) == (0, 0, 0))
        #expect(YCbCr.rgb(y: 235, cb: 128, cr: 128) == (255, 255, 255))
        #expect(YCbCr.rgb(y: 126, cb: 128, cr: 128) == (128, 128, 128))
        // BT.601 100% red, green and blue bars (their 8-bit codes are themselves rounded).
        func near(_ got: (r: Int32, g: Int32, b: Int32), _ want: (Int32, Int32, Int32)) -> Bool {
            abs(got.r - want.0) <= 1 && abs(got.g - want.1) <= 1 && abs(got.b - want.2) <= 1
        }
        #expect(near(YCbCr.rgb(y: 81, cb: 90, cr: 240), (255, 0, 0)))
        #expect(near(YCbCr.rgb(y: 145, cb: 54, cr: 34), (0, 255, 0)))
        #expect(near(YCbCr.rgb(y: 41, cb: 240, cr: 110), (0, 0, 255)))
    }

    @Test func divisionBy255RoundsExactlyForEveryProduct() {
        for t in 0...65025 {
            let want = (2 * t + 255) / 510  // round(t / 255); never a tie because 255 is odd
            #expect(AlphaBlend.divide255(Int32(t)) == Int32(want))
        }
        for base in stride(from: 0, through: 65025 - 15, by: 16) {
            var lanes = SIMD16<UInt16>()
            for lane in 0..<16 { lanes[lane] = UInt16(base + lane) }
            let got = AlphaBlend.divide255(lanes)
            for lane in 0..<16 { #expect(Int(got[lane]) == (2 * (base + lane) + 255) / 510) }
        }
    }
}
