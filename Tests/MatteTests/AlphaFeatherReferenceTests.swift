@_spi(Testing) import Frames
@testable import Matte
import MatteReference
import Testing

/// AlphaFeather (its horizontal pass copies flat stretches and sums only near changes, its
/// vertical one keeps running column sums) against the plain separable box it stands for,
/// computed everywhere (FeatherReference in MatteReference).
@Suite struct AlphaFeatherReferenceTests {
    @Test(arguments: [(FrameSize(width: 97, height: 61), FrameSize(width: 97, height: 61)),
                      (FrameSize(width: 48, height: 30), FrameSize(width: 101, height: 64)),
                      (FrameSize(width: 160, height: 120), FrameSize(width: 160, height: 120))])
    func featherIsThePlainSeparableBox(workSize: FrameSize, alphaSize: FrameSize) throws {
        let feather = try AlphaFeather(workSize: workSize, alphaSize: alphaSize)
        let out = PixelBuffer(format: .alpha8, size: alphaSize)
        var noise = EdgeLanesTests.Noise(state: 0xD1B5_4A32_D192_ED03)
        // Blobs of 0 and 255 with soft and noisy edges, sparse speckles, stripes, and all-flat.
        let patterns: [(String, (Int, Int) -> UInt8)] = [
            ("blobs", { x, y in ((x / 7 + y / 5) % 3 == 0) ? 255 : 0 }),
            ("soft", { x, y in x * 255 / max(1, workSize.width - 1) > 128 ? 255 : UInt8(min(255, x * 4 + y)) }),
            ("speckles", { _, _ in noise.next(40) == 0 ? 255 : 0 }),
            ("noise", { _, _ in UInt8(truncatingIfNeeded: noise.next(256)) }),
            ("stripes", { x, _ in x % 9 < 4 ? 255 : 0 }),
            ("rows", { _, y in y % 6 < 2 ? 255 : 0 }),
            ("flat", { _, _ in 255 }),
        ]
        for (name, pattern) in patterns {
            var source = [UInt8](repeating: 0, count: workSize.pixelCount)
            for y in 0..<workSize.height { for x in 0..<workSize.width { source[y * workSize.width + x] = pattern(x, y) } }
            for radius in [0, 1, 3, 8, 40] {
                let expected = FeatherReference.feather(source: source, workWidth: workSize.width, workHeight: workSize.height,
                                                        alphaWidth: alphaSize.width, alphaHeight: alphaSize.height,
                                                        radius: radius)
                source.withUnsafeBufferPointer { feather.run(source: $0.baseAddress!, radius: radius, into: out.view) }
                var differing = 0
                for y in 0..<alphaSize.height {
                    let row = out.view.row(y).assumingMemoryBound(to: UInt8.self)
                    for x in 0..<alphaSize.width where row[x] != expected[y * alphaSize.width + x] { differing += 1 }
                }
                #expect(differing == 0, "\(name) \(workSize) -> \(alphaSize) radius \(radius): \(differing) pixels differ")
            }
        }
    }
}
