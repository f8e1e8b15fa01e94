/// A chain of colour steps folded, at load time, into one table, so the per-pixel cost is one
/// lookup whatever the chain's length. The table's form follows the chain's shape:
///
/// - `channels`: every step maps each channel by itself (fade, contrast, exposure, posterize,
///   invert, 1D cubes): three 256-entry tables, exact.
/// - `gradient`: per-channel steps, then a step whose colour depends on luma alone (mono, noir,
///   thermal, X-ray), then anything: the luma of the per-channel steps' output is a sum of three
///   256-entry tables, and indexes a ramp of `gradientEntries` colours holding the rest of the
///   chain. The ramp has 4096 entries rather than 256 because the steepest ramp (thermal) changes
///   5 levels per level of luma, which a 256-entry ramp would miss by 2.5.
/// - `lattice`: anything else, sampled on an N^3 lattice (N = 33, or a cube file's size when the
///   chain is that file alone, or the largest cube's size when larger) and read with tetrahedral
///   interpolation in integers. The nodes keep the chain's result unclamped (1/16 level, within
///   +-2047 levels) and the clamp follows the interpolation, so a chain of affine steps (most of
///   the built-in ones) is reproduced to rounding, not merely approximated.
///
/// Owns its tables; immutable after `init`, so any number of threads may apply it at once.
public final class ColourLookup: @unchecked Sendable {
    public enum Form: Equatable, Sendable {
        case channels
        case gradient
        case lattice(size: Int)
    }

    public let form: Form
    static let gradientEntries = 4096
    /// Lattice fractions are in 1/4096 of a cell, node values in 1/16 level: their product's
    /// 2^16 is the shift back to levels.
    static let fractionOne: Int32 = 4096
    static let nodeScale: Float = 16

    /// channels: 3 x 256 output levels. gradient: 3 x 256 luma contributions in 1/16 of a ramp
    /// entry (as Int32). lattice: 3 x 256 words, node offset << 16 | fraction.
    private let perChannel: UnsafeMutableRawPointer
    private let gradientWords: UnsafeMutablePointer<UInt32>
    private let lattice: UnsafeMutablePointer<SIMD4<Int16>>
    private let latticeSize: Int

    /// The bytes of the tables this lookup reads per pixel.
    public var tableBytes: Int {
        switch form {
        case .channels: return 3 * 256
        case .gradient: return 3 * 256 * 4 + Self.gradientEntries * 4
        case .lattice(let n): return 3 * 256 * 4 + n * n * n * 8
        }
    }

    /// Folds the chain's colour steps (spatial steps are skipped: `SpatialPass` runs them).
    /// Nil when the chain has no colour step.
    public static func fold(_ steps: [LookStep]) -> ColourLookup? {
        let colour = steps.filter { $0.isColour }
        guard !colour.isEmpty else { return nil }
        return ColourLookup(colour)
    }

    private init(_ steps: [LookStep]) {
        let split = steps.firstIndex { $0.shape != .perChannel } ?? steps.count
        if split == steps.count {
            form = .channels
            latticeSize = 0
            let table = UnsafeMutableRawPointer.allocate(byteCount: 3 * 256, alignment: 16)
            for channel in 0..<3 {
                for level in 0..<256 {
                    var v = Float(level) / 255
                    for step in steps { v = step.channel(v, channel) }
                    table.storeBytes(of: Self.quantise(v), toByteOffset: channel * 256 + level, as: UInt8.self)
                }
            }
            perChannel = table
            gradientWords = .allocate(capacity: 1)
            lattice = .allocate(capacity: 1)
        } else if steps[split].shape == .lumaMap {
            form = .gradient
            latticeSize = 0
            let prefix = steps[..<split]
            let table = UnsafeMutableRawPointer.allocate(byteCount: 3 * 256 * 4, alignment: 16)
            let scale = Float(Self.gradientEntries - 1) * 16
            for channel in 0..<3 {
                for level in 0..<256 {
                    var v = Float(level) / 255
                    for step in prefix { v = step.channel(v, channel) }
                    let contribution = (v * LookStep.lumaWeights[channel] * scale).rounded()
                    table.storeBytes(of: Int32(min(max(contribution, -1e8), 1e8)), toByteOffset: (channel * 256 + level) * 4,
                                     as: Int32.self)
                }
            }
            perChannel = table
            let words = UnsafeMutablePointer<UInt32>.allocate(capacity: Self.gradientEntries)
            let rest = steps[(split + 1)...]
            for i in 0..<Self.gradientEntries {
                var c = steps[split].lumaMap(Float(i) / Float(Self.gradientEntries - 1))
                for step in rest { c = step.apply(c) }
                words[i] = Self.word(c)
            }
            gradientWords = words
            lattice = .allocate(capacity: 1)
        } else {
            var n = 33
            if steps.count == 1, case .cube(let table) = steps[0], table.hasUnitDomain {
                n = table.size
            } else {
                for case .cube(let table) in steps where !table.isOneDimensional { n = max(n, table.size) }
            }
            latticeSize = n
            form = .lattice(size: n)
            let nodes = UnsafeMutablePointer<SIMD4<Int16>>.allocate(capacity: n * n * n)
            let last = Float(n - 1)
            for b in 0..<n {
                for g in 0..<n {
                    for r in 0..<n {
                        var c = SIMD3<Float>(Float(r) / last, Float(g) / last, Float(b) / last)
                        for step in steps { c = step.apply(c) }
                        let scaled = (c * 255 * Self.nodeScale).rounded(.toNearestOrAwayFromZero)
                            .clamped(lowerBound: SIMD3(repeating: -32767), upperBound: SIMD3(repeating: 32767))
                        nodes[r + n * (g + n * b)] = SIMD4(Int16(scaled.x), Int16(scaled.y), Int16(scaled.z), 0)
                    }
                }
            }
            lattice = nodes
            let table = UnsafeMutableRawPointer.allocate(byteCount: 3 * 256 * 4, alignment: 16)
            let strides = [1, n, n * n]
            for channel in 0..<3 {
                for level in 0..<256 {
                    let p = level * (n - 1)
                    var cell = p / 255, remainder = p % 255
                    if cell == n - 1 { cell = n - 2; remainder = 255 }
                    let fraction = (remainder * Int(Self.fractionOne) + 127) / 255
                    let word = UInt32(cell * strides[channel]) << 16 | UInt32(fraction)
                    table.storeBytes(of: word, toByteOffset: (channel * 256 + level) * 4, as: UInt32.self)
                }
            }
            perChannel = table
            gradientWords = .allocate(capacity: 1)
        }
    }

    deinit {
        perChannel.deallocate()
        gradientWords.deallocate()
        lattice.deallocate()
    }

    static func quantise(_ v: Float) -> UInt8 {
        UInt8(min(max(v * 255, 0), 255).rounded())
    }

    /// B G R words (XRGB8888's byte order), the fourth byte 0.
    static func word(_ c: SIMD3<Float>) -> UInt32 {
        UInt32(quantise(c.z)) | UInt32(quantise(c.y)) << 8 | UInt32(quantise(c.x)) << 16
    }

    /// One colour through the lookup (tests and tools; the frame path uses `apply(words:...)`).
    public func apply(red: UInt8, green: UInt8, blue: UInt8) -> SIMD3<UInt8> {
        var word = UInt32(blue) | UInt32(green) << 8 | UInt32(red) << 16
        withUnsafeMutableBytes(of: &word) { apply(words: $0.baseAddress!, from: 0, to: 1) }
        return SIMD3(UInt8(truncatingIfNeeded: word >> 16), UInt8(truncatingIfNeeded: word >> 8),
                     UInt8(truncatingIfNeeded: word))
    }

    /// Words from..<to of a row of B G R A words (XRGB8888/ARGB8888 in memory) in place; the
    /// fourth byte (alpha) is kept. No allocation; safe on any thread.
    public func apply(words: UnsafeMutableRawPointer, from start: Int, to end: Int) {
        switch form {
        case .channels: applyChannels(words, start, end)
        case .gradient: applyGradient(words, start, end)
        case .lattice: applyLattice(words, start, end)
        }
    }

    @inline(never)
    private func applyChannels(_ words: UnsafeMutableRawPointer, _ start: Int, _ end: Int) {
        let table = UnsafeRawPointer(perChannel)
        var x = start
        while x < end {
            let w = words.load(fromByteOffset: x &* 4, as: UInt32.self)
            let b = UInt32(table.load(fromByteOffset: 512 &+ Int(w & 0xFF), as: UInt8.self))
            let g = UInt32(table.load(fromByteOffset: 256 &+ Int((w >> 8) & 0xFF), as: UInt8.self))
            let r = UInt32(table.load(fromByteOffset: Int((w >> 16) & 0xFF), as: UInt8.self))
            words.storeBytes(of: (w & 0xFF00_0000) | b | g << 8 | r << 16, toByteOffset: x &* 4, as: UInt32.self)
            x &+= 1
        }
    }

    @inline(never)
    private func applyGradient(_ words: UnsafeMutableRawPointer, _ start: Int, _ end: Int) {
        let table = UnsafeRawPointer(perChannel)
        let ramp = gradientWords
        let top = Int32(Self.gradientEntries - 1)
        var x = start
        while x < end {
            let w = words.load(fromByteOffset: x &* 4, as: UInt32.self)
            let sum = table.load(fromByteOffset: Int((w >> 16) & 0xFF) &* 4, as: Int32.self)
                &+ table.load(fromByteOffset: (256 &+ Int((w >> 8) & 0xFF)) &* 4, as: Int32.self)
                &+ table.load(fromByteOffset: (512 &+ Int(w & 0xFF)) &* 4, as: Int32.self)
            let index = min(max((sum &+ 8) &>> 4, 0), top)
            words.storeBytes(of: (w & 0xFF00_0000) | ramp[Int(index)], toByteOffset: x &* 4, as: UInt32.self)
            x &+= 1
        }
    }

    @inline(never)
    private func applyLattice(_ words: UnsafeMutableRawPointer, _ start: Int, _ end: Int) {
        let table = UnsafeRawPointer(perChannel)
        let nodes = lattice
        let n = latticeSize
        let strideR = 1, strideG = n, strideB = n &* n
        let one = Self.fractionOne
        var x = start
        while x < end {
            let w = words.load(fromByteOffset: x &* 4, as: UInt32.self)
            let er = table.load(fromByteOffset: Int((w >> 16) & 0xFF) &* 4, as: UInt32.self)
            let eg = table.load(fromByteOffset: (256 &+ Int((w >> 8) & 0xFF)) &* 4, as: UInt32.self)
            let eb = table.load(fromByteOffset: (512 &+ Int(w & 0xFF)) &* 4, as: UInt32.self)
            let base = Int(er >> 16) &+ Int(eg >> 16) &+ Int(eb >> 16)
            let fr = Int32(er & 0xFFFF), fg = Int32(eg & 0xFFFF), fb = Int32(eb & 0xFFFF)
            // The tetrahedron holding the point: walk from the cell's origin along the axes in
            // the order of their fractions, largest first (see CubeTable.tetrahedral).
            var s1 = strideR, s2 = strideG, f1 = fr, f2 = fg, f3 = fb
            if fr >= fg {
                if fg >= fb {
                } else if fr >= fb {
                    s2 = strideB; f2 = fb; f3 = fg
                } else {
                    s1 = strideB; s2 = strideR; f1 = fb; f2 = fr; f3 = fg
                }
            } else {
                if fb >= fg {
                    s1 = strideB; s2 = strideG; f1 = fb; f2 = fg; f3 = fr
                } else if fb >= fr {
                    s1 = strideG; s2 = strideB; f1 = fg; f2 = fb; f3 = fr
                } else {
                    s1 = strideG; s2 = strideR; f1 = fg; f2 = fr; f3 = fb
                }
            }
            let c0 = SIMD4<Int32>(truncatingIfNeeded: nodes[base])
            let c1 = SIMD4<Int32>(truncatingIfNeeded: nodes[base &+ s1])
            let c2 = SIMD4<Int32>(truncatingIfNeeded: nodes[base &+ s1 &+ s2])
            let c3 = SIMD4<Int32>(truncatingIfNeeded: nodes[base &+ strideR &+ strideG &+ strideB])
            let sum = c0 &* (one &- f1) &+ c1 &* (f1 &- f2) &+ c2 &* (f2 &- f3) &+ c3 &* f3
            let level = ((sum &+ 32768) &>> 16).clamped(lowerBound: SIMD4(repeating: 0), upperBound: SIMD4(repeating: 255))
            let out = UInt32(truncatingIfNeeded: level[2]) | UInt32(truncatingIfNeeded: level[1]) << 8
                | UInt32(truncatingIfNeeded: level[0]) << 16
            words.storeBytes(of: (w & 0xFF00_0000) | out, toByteOffset: x &* 4, as: UInt32.self)
            x &+= 1
        }
    }
}
