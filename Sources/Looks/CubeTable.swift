/// A lookup table read from an Adobe .cube file (see `CubeParser`): 1D (one curve per channel)
/// or 3D (a lattice, red varying fastest), over the input domain `domainMin...domainMax`.
/// Values are as in the file (usually 0...1; the parser bounds them).
public struct CubeTable: Equatable, Sendable {
    public let title: String
    public let size: Int
    public let isOneDimensional: Bool
    public let domainMin: SIMD3<Float>
    public let domainMax: SIMD3<Float>
    /// size (1D) or size^3 (3D) entries of three values each, red first.
    public let values: [Float]

    public init(title: String, size: Int, isOneDimensional: Bool, domainMin: SIMD3<Float>,
                domainMax: SIMD3<Float>, values: [Float]) {
        precondition(size >= 2 && values.count == 3 * (isOneDimensional ? size : size * size * size))
        self.title = title
        self.size = size
        self.isOneDimensional = isOneDimensional
        self.domainMin = domainMin
        self.domainMax = domainMax
        self.values = values
    }

    /// True when the table's lattice covers exactly 0...1 on each channel.
    var hasUnitDomain: Bool { domainMin == SIMD3(repeating: 0) && domainMax == SIMD3(repeating: 1) }

    /// The input's position in the table, in entries, clamped to the domain.
    @inline(__always)
    private func position(_ c: SIMD3<Float>) -> SIMD3<Float> {
        let unit = (c - domainMin) / (domainMax - domainMin)
        return unit.clamped(lowerBound: SIMD3(repeating: 0), upperBound: SIMD3(repeating: 1)) * Float(size - 1)
    }

    public func apply(_ c: SIMD3<Float>) -> SIMD3<Float> {
        if isOneDimensional { return SIMD3(apply1D(c.x, channel: 0), apply1D(c.y, channel: 1), apply1D(c.z, channel: 2)) }
        return tetrahedral(position(c))
    }

    /// One channel through a 1D table, linearly between entries.
    func apply1D(_ v: Float, channel: Int) -> Float {
        let unit = (v - domainMin[channel]) / (domainMax[channel] - domainMin[channel])
        let p = min(max(unit, 0), 1) * Float(size - 1)
        let i = min(Int(p), size - 2)
        let f = p - Float(i)
        let a = values[3 * i + channel], b = values[3 * (i + 1) + channel]
        return a + (b - a) * f
    }

    @inline(__always)
    private func entry(_ r: Int, _ g: Int, _ b: Int) -> SIMD3<Float> {
        let i = 3 * (r + size * (g + size * b))
        return SIMD3(values[i], values[i + 1], values[i + 2])
    }

    /// Tetrahedral interpolation in the cell containing `p`: the cell split along its main
    /// diagonal into six tetrahedra, the one holding `p` chosen by the order of its fractions.
    /// The same rule as `ColourLookup`'s integer lattice, so a table used alone reads the same.
    private func tetrahedral(_ p: SIMD3<Float>) -> SIMD3<Float> {
        let r = min(Int(p.x), size - 2), g = min(Int(p.y), size - 2), b = min(Int(p.z), size - 2)
        let fr = p.x - Float(r), fg = p.y - Float(g), fb = p.z - Float(b)
        let c000 = entry(r, g, b), c111 = entry(r + 1, g + 1, b + 1)
        if fr >= fg {
            if fg >= fb {
                return c000 * (1 - fr) + entry(r + 1, g, b) * (fr - fg) + entry(r + 1, g + 1, b) * (fg - fb) + c111 * fb
            } else if fr >= fb {
                return c000 * (1 - fr) + entry(r + 1, g, b) * (fr - fb) + entry(r + 1, g, b + 1) * (fb - fg) + c111 * fg
            } else {
                return c000 * (1 - fb) + entry(r, g, b + 1) * (fb - fr) + entry(r + 1, g, b + 1) * (fr - fg) + c111 * fg
            }
        } else {
            if fb >= fg {
                return c000 * (1 - fb) + entry(r, g, b + 1) * (fb - fg) + entry(r, g + 1, b + 1) * (fg - fr) + c111 * fr
            } else if fb >= fr {
                return c000 * (1 - fg) + entry(r, g + 1, b) * (fg - fb) + entry(r, g + 1, b + 1) * (fb - fr) + c111 * fr
            } else {
                return c000 * (1 - fg) + entry(r, g + 1, b) * (fg - fr) + entry(r + 1, g + 1, b) * (fr - fb) + c111 * fb
            }
        }
    }
}
