import Testing
@testable import Looks

/// The colour steps' formulas (`StepColour`) against `StepReference`, on a grid of colours
/// including values outside 0...1 (the chain does not clamp between steps).
@Suite struct ColourStepTests {
    static let steps: [LookStep] = [
        .mono, .noir, .sepia(amount: 1), .sepia(amount: 0.4), .tint(red: 1, green: 0.85, blue: 0.65, amount: 0.3),
        .vintage, .fade(amount: 0.25), .saturation(factor: 0), .saturation(factor: 1.5), .contrast(factor: 1.3),
        .contrast(factor: 0.5), .exposure(stops: 0.5), .exposure(stops: -1), .posterize(levels: 4),
        .posterize(levels: 5), .thermal, .xray, .invert,
    ]

    @Test(arguments: steps)
    func stepMatchesItsReference(_ step: LookStep) {
        var worst = 0.0
        let grid: [Double] = [-0.2, 0, 0.1, 0.2, 0.25, 0.333, 0.5, 0.6, 0.75, 0.9, 1, 1.2]
        for r in grid {
            for g in grid {
                for b in grid {
                    let got = step.apply(SIMD3(Float(r), Float(g), Float(b)))
                    let want = StepReference.apply(step, r, g, b)
                    worst = max(worst, abs(Double(got.x) - want.0), abs(Double(got.y) - want.1), abs(Double(got.z) - want.2))
                }
            }
        }
        // Float against Double: a few units of Float's precision.
        #expect(worst < 2e-5, "\(step): worst difference \(worst)")
    }

    @Test func posterizeBoundariesAreExact() {
        // 8-bit inputs on a band boundary (51/255 with five levels) go to the upper band.
        for level in 0...255 {
            let want = StepReference.apply(.posterize(levels: 5), Double(level) / 255, 0, 0).0
            let got = LookStep.posterize(levels: 5).apply(SIMD3(Float(level) / 255, 0, 0)).x
            #expect(abs(Double(got) - want) < 1e-6, "level \(level)")
        }
    }

    @Test func spatialStepsLeaveColoursAlone() {
        let c = SIMD3<Float>(0.2, 0.5, 0.9)
        #expect(LookStep.blur(radius: 3).apply(c) == c)
        #expect(LookStep.pixellate(size: 8).apply(c) == c)
    }
}
