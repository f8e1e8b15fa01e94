/// The colour steps' formulas, on RGB in 0...1 without clamping (see `LookStep`). These are the
/// definitions: the folded lookup is tested against the chain applied through them, and they are
/// tested against formulas written again in the tests.
extension LookStep {
    /// BT.601 luma weights, the ones the camera's YCbCr uses.
    static let lumaWeights = SIMD3<Float>(0.299, 0.587, 0.114)

    @inline(__always)
    static func luma(_ c: SIMD3<Float>) -> Float { (c * lumaWeights).sum() }

    /// The step applied to one colour. Spatial steps return the colour unchanged.
    public func apply(_ c: SIMD3<Float>) -> SIMD3<Float> {
        switch self {
        case .mono, .noir, .thermal, .xray:
            return lumaMap(Self.luma(c))
        case .sepia(let amount):
            let toned = SIMD3<Float>((c * SIMD3(0.393, 0.769, 0.189)).sum(),
                                     (c * SIMD3(0.349, 0.686, 0.168)).sum(),
                                     (c * SIMD3(0.272, 0.534, 0.131)).sum())
            return c + (toned - c) * amount
        case .tint(let red, let green, let blue, let amount):
            return c + (SIMD3(red, green, blue) * Self.luma(c) - c) * amount
        case .vintage:
            let warm = SIMD3<Float>((c * SIMD3(0.90, 0.12, 0.04)).sum(),
                                    (c * SIMD3(0.06, 0.88, 0.06)).sum(),
                                    (c * SIMD3(0.06, 0.16, 0.68)).sum())
            // Mid-tones lifted by a parabola, then blacks raised and whites lowered: the
            // washed-out print of an instant photo.
            let curved = warm + warm * (SIMD3(repeating: 1) - warm) * 0.2
            return curved * 0.84 + SIMD3(repeating: 0.08)
        case .saturation(let factor):
            let l = Self.luma(c)
            return SIMD3(repeating: l) + (c - SIMD3(repeating: l)) * factor
        case .fade, .contrast, .exposure, .posterize, .invert:
            return SIMD3(channel(c.x, 0), channel(c.y, 1), channel(c.z, 2))
        case .cube(let table):
            return table.apply(c)
        case .blur, .pixellate:
            return c
        }
    }

    /// A per-channel step on one channel (`index` 0 red, 1 green, 2 blue).
    func channel(_ v: Float, _ index: Int) -> Float {
        switch self {
        case .fade(let amount): return v + (0.5 - v) * amount
        case .contrast(let factor): return 0.5 + (v - 0.5) * factor
        case .exposure(let stops): return v * Self.powerOfTwo(stops)
        case .posterize(let levels):
            let clamped = min(max(v, 0), 1)
            // The nudge puts an input exactly on a boundary (51/255 for five levels, where Float's
            // rounding may land either side) in the upper band, as exact arithmetic would.
            let step = min((clamped * Float(levels) + 1e-4).rounded(.down), Float(levels - 1))
            return step / Float(levels - 1)
        case .invert: return 1 - v
        case .cube(let table): return table.apply1D(v, channel: index)
        default: return apply(SIMD3(repeating: v))[index]
        }
    }

    /// A luma-map step's colour for luma `l` (clamped to 0...1 first).
    func lumaMap(_ l: Float) -> SIMD3<Float> {
        let y = min(max(l, 0), 1)
        switch self {
        case .mono: return SIMD3(repeating: y)
        case .noir: return SIMD3(repeating: y * y * (3 - 2 * y))
        case .thermal: return GradientRamp.thermal.colour(at: y)
        case .xray: return GradientRamp.xray.colour(at: 1 - y)
        default: return apply(SIMD3(repeating: y))
        }
    }

    /// 2^x without libm (Embedded links none of its exp2): the integer part by repeated scaling,
    /// the fraction by its series, enough terms for Float precision.
    static func powerOfTwo(_ x: Float) -> Float {
        let whole = x.rounded(.down)
        let fraction = Double(x - whole) * 0.693_147_180_559_945_3
        var term = 1.0, sum = 1.0
        for n in 1...14 {
            term *= fraction / Double(n)
            sum += term
        }
        var scale: Double = 1
        let count = Int(min(max(whole, -60), 60))
        if count >= 0 { for _ in 0..<count { scale *= 2 } } else { for _ in 0..<(-count) { scale /= 2 } }
        return Float(sum * scale)
    }
}
