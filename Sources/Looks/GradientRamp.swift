/// A piecewise-linear colour ramp over 0...1, the gradient maps' data.
public struct GradientRamp: Sendable {
    public let positions: [Float]
    public let colours: [SIMD3<Float>]

    public func colour(at t: Float) -> SIMD3<Float> {
        guard t > positions[0] else { return colours[0] }
        for i in 1..<positions.count where t <= positions[i] {
            let f = (t - positions[i - 1]) / (positions[i] - positions[i - 1])
            return colours[i - 1] + (colours[i] - colours[i - 1]) * f
        }
        return colours[colours.count - 1]
    }

    /// A thermal camera's false colour: cold black through blue, magenta, orange, yellow to hot white.
    public static let thermal = GradientRamp(
        positions: [0, 0.2, 0.4, 0.6, 0.8, 1],
        colours: [SIMD3(0, 0, 0), SIMD3(0.1, 0, 0.6), SIMD3(0.8, 0, 0.6), SIMD3(1, 0.4, 0),
                  SIMD3(1, 0.9, 0), SIMD3(1, 1, 1)])

    /// A radiograph: dense (bright in the input) dark, with a cold blue cast in the mid-tones.
    public static let xray = GradientRamp(
        positions: [0, 0.5, 1],
        colours: [SIMD3(0, 0.02, 0.06), SIMD3(0.35, 0.55, 0.75), SIMD3(0.9, 0.97, 1)])
}
