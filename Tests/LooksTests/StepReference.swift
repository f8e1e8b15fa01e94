@testable import Looks

/// Each colour step written again, per channel in Double, from its description (not from
/// `StepColour`), so a slip in either shows as a disagreement.
enum StepReference {
    static func clamp(_ v: Double) -> Double { v < 0 ? 0 : (v > 1 ? 1 : v) }
    static func y(_ r: Double, _ g: Double, _ b: Double) -> Double { 0.299 * r + 0.587 * g + 0.114 * b }

    /// The step on (r, g, b) in 0...1, unclamped.
    static func apply(_ step: LookStep, _ r: Double, _ g: Double, _ b: Double) -> (Double, Double, Double) {
        switch step {
        case .mono:
            let l = clamp(y(r, g, b))
            return (l, l, l)
        case .noir:
            let l = clamp(y(r, g, b))
            let s = 3 * l * l - 2 * l * l * l
            return (s, s, s)
        case .sepia(let amount):
            let a = Double(amount)
            let sr = 0.393 * r + 0.769 * g + 0.189 * b
            let sg = 0.349 * r + 0.686 * g + 0.168 * b
            let sb = 0.272 * r + 0.534 * g + 0.131 * b
            return ((1 - a) * r + a * sr, (1 - a) * g + a * sg, (1 - a) * b + a * sb)
        case .tint(let tr, let tg, let tb, let amount):
            let a = Double(amount), l = y(r, g, b)
            return ((1 - a) * r + a * Double(tr) * l, (1 - a) * g + a * Double(tg) * l, (1 - a) * b + a * Double(tb) * l)
        case .vintage:
            func curve(_ w: Double) -> Double { 0.08 + 0.84 * (w + 0.2 * w * (1 - w)) }
            return (curve(0.90 * r + 0.12 * g + 0.04 * b), curve(0.06 * r + 0.88 * g + 0.06 * b),
                    curve(0.06 * r + 0.16 * g + 0.68 * b))
        case .fade(let amount):
            let a = Double(amount)
            return ((1 - a) * r + a / 2, (1 - a) * g + a / 2, (1 - a) * b + a / 2)
        case .saturation(let factor):
            let f = Double(factor), l = y(r, g, b)
            return (l + f * (r - l), l + f * (g - l), l + f * (b - l))
        case .contrast(let factor):
            let f = Double(factor)
            return ((r - 0.5) * f + 0.5, (g - 0.5) * f + 0.5, (b - 0.5) * f + 0.5)
        case .exposure(let stops):
            var m = 1.0
            // 2^stops for the quarter stops the tests use, as repeated square roots of 2.
            let quarters = Int((Double(stops) * 4).rounded())
            let fourthRootOf2 = 1.189_207_115_002_721
            for _ in 0..<abs(quarters) { m = quarters > 0 ? m * fourthRootOf2 : m / fourthRootOf2 }
            return (r * m, g * m, b * m)
        case .posterize(let levels):
            func p(_ v: Double) -> Double {
                let n = Double(levels)
                let k = min((clamp(v) * 255 * n / 255 + 1e-9).rounded(.down), n - 1)
                return k / (n - 1)
            }
            return (p(r), p(g), p(b))
        case .thermal:
            return ramp(clamp(y(r, g, b)), [(0, 0, 0), (0.1, 0, 0.6), (0.8, 0, 0.6), (1, 0.4, 0), (1, 0.9, 0), (1, 1, 1)])
        case .xray:
            return ramp(1 - clamp(y(r, g, b)), [(0, 0.02, 0.06), (0.35, 0.55, 0.75), (0.9, 0.97, 1)])
        case .invert:
            return (1 - r, 1 - g, 1 - b)
        default:
            fatalError("no reference for \(step)")
        }
    }

    /// Evenly spaced stops from 0 to 1, linear between them.
    static func ramp(_ t: Double, _ stops: [(Double, Double, Double)]) -> (Double, Double, Double) {
        let spans = Double(stops.count - 1)
        let i = min(Int(t * spans), stops.count - 2)
        let f = t * spans - Double(i)
        let a = stops[i], b = stops[i + 1]
        return (a.0 + (b.0 - a.0) * f, a.1 + (b.1 - a.1) * f, a.2 + (b.2 - a.2) * f)
    }

    /// The chain step by step, clamped once at the end, as 8-bit levels (unrounded).
    static func chain(_ steps: [LookStep], _ r: UInt8, _ g: UInt8, _ b: UInt8) -> (Double, Double, Double) {
        var c = (Double(r) / 255, Double(g) / 255, Double(b) / 255)
        for step in steps { c = apply(step, c.0, c.1, c.2) }
        return (clamp(c.0) * 255, clamp(c.1) * 255, clamp(c.2) * 255)
    }
}
