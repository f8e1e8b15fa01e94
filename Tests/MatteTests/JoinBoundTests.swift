@testable import Matte
import Testing

/// DepthSegments decides most joins with an integer bound of the float tolerance (JoinBound) and
/// the float formula only beyond it, so its bytes equal the formula's exactly when the bound
/// never exceeds the tolerance. `fit` proves that for every reading; these check the proof can
/// fail, that fitted bounds hold at the units recordings and cameras use, that they stay close
/// (a loose bound is exact but slow), and that the lanes compute the scalar's bits.
@Suite struct JoinBoundTests {
    static func tolerance(_ d: Int, unit: Float) -> Float {
        let f = Float(d)
        return 30 / unit + f * f * (unit / 60_000)
    }

    static func fitted(unit: Float) -> JoinBound {
        let base = 30 / unit
        return JoinBound.fit(base: base, growth: unit / 60_000, sure: Int(min(65535, base)))
    }

    @Test func theProofRejectsABoundOverTheTolerance() {
        // floor(30) + 1 at every depth: over the tolerance near the camera (30.0 at d = 1).
        #expect(!JoinBound(sure: 31, low: 0, high: 0).holds(base: 30, growth: 1 / 60_000))
        // The integer part of the growth term doubled: over it far away only.
        #expect(!JoinBound(sure: 30, low: 65535, high: 65535).holds(base: 30, growth: 1 / 60_000))
        #expect(JoinBound(sure: 30, low: 0, high: 0).holds(base: 30, growth: 1 / 60_000))
    }

    @Test(arguments: [Float(1), 0.25, 4, 0.1, 0.2, 0.125, 2.5, 10, 0.01, 1000])
    func fittedBoundsHoldForEveryReading(unit: Float) {
        let bound = Self.fitted(unit: unit)
        var over = 0
        for d in 1...65535 where Float(bound.of(UInt16(d))) > Self.tolerance(d, unit: unit) { over += 1 }
        #expect(over == 0, "unit \(unit): \(over) readings with the bound over the tolerance")
    }

    /// Within 4 of the tolerance at every depth a booth sees (0.3 to 6 m), at the usual units
    /// (truncating d^2 to its high half costs up to 1.1 at unit 1, the two multiplies 2 more).
    @Test(arguments: [Float(1), 0.25, 0.1, 0.2])
    func fittedBoundsAreClose(unit: Float) {
        let bound = Self.fitted(unit: unit)
        var worst: Float = 0
        for mm in stride(from: 300, through: 6000, by: 7) {
            let d = Int(Float(mm) / unit)
            guard d <= 65535 else { break }
            worst = max(worst, Self.tolerance(d, unit: unit) - Float(bound.of(UInt16(d))))
        }
        #expect(worst < 4, "unit \(unit): bound up to \(worst) under the tolerance")
    }

    @Test func lanesMatchTheScalar() {
        for bound in [Self.fitted(unit: 1), Self.fitted(unit: 0.1), Self.fitted(unit: 4),
                      JoinBound(sure: 65535, low: 65535, high: 65535)] {
            var d = 0
            var differ = 0
            while d < 65536 {
                var lanes = SIMD8<UInt16>()
                for i in 0..<8 { lanes[i] = UInt16(truncatingIfNeeded: d + i * 8191) }
                let out = bound.of(lanes)
                for i in 0..<8 where out[i] != bound.of(lanes[i]) { differ += 1 }
                d += 8
            }
            #expect(differ == 0, "\(bound)")
        }
    }
}
