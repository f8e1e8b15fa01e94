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
/// - `affine`: a chain whose result is a 3x3 matrix and an offset (sepia, tint, saturation,
///   contrast, fade, exposure in any mix: the built-in sepia, warm, cool, vivid, faded), found by
///   checking the chain against the fitted matrix at every node of the lattice it would otherwise
///   fold to. Applied as integer multiply-adds on eight pixels at once, with no lookup: a lattice
///   reads four nodes per pixel through a data-dependent choice of tetrahedron, which on the board
///   costs several times the matte's instructions for a covered frame (callgrind: ~70 per pixel).
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
        /// The chain is affine (a matrix and an offset, then the clamp): no table at all.
        case affine
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
    /// affine: red, green, blue rows of (m_r, m_g, m_b, offset), in 1/4096 (offset in 1/4096 level).
    private let matrix: SIMD16<Int32>
    static let affineShift: Int32 = 12

    /// The bytes of the tables this lookup reads per pixel.
    public var tableBytes: Int {
        switch form {
        case .channels: return 3 * 256
        case .gradient: return 3 * 256 * 4 + Self.gradientEntries * 4
        case .lattice(let n): return 3 * 256 * 4 + n * n * n * 8
        case .affine: return 12 * 4
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
        // A luma map goes to the ramp (cheaper still), and a cube file keeps its own lattice.
        let tryAffine = split < steps.count && steps[split].shape == .general
            && !steps.contains { if case .cube = $0 { return true } else { return false } }
        let affine = tryAffine ? Self.affineFit(steps) : nil
        matrix = affine ?? SIMD16()
        if let _ = affine {
            form = .affine
            latticeSize = 0
            perChannel = .allocate(byteCount: 1, alignment: 16)
            gradientWords = .allocate(capacity: 1)
            lattice = .allocate(capacity: 1)
        } else if split == steps.count {
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

    /// The chain as a matrix and offset in fixed point, when it is one: fitted from the chain at
    /// black and the three primaries, then checked at every node of a 17^3 lattice (to 1/100 level
    /// before the clamp). Nil when it is not affine or its coefficients are too large for the
    /// integer form (|m| < 64, |offset| < 64 in 0...1 units).
    static func affineFit(_ steps: [LookStep]) -> SIMD16<Int32>? {
        func chain(_ c: SIMD3<Float>) -> SIMD3<Float> {
            var v = c
            for step in steps { v = step.apply(v) }
            return v
        }
        let origin = chain(SIMD3(0, 0, 0))
        let columns = [chain(SIMD3(1, 0, 0)) - origin, chain(SIMD3(0, 1, 0)) - origin, chain(SIMD3(0, 0, 1)) - origin]
        for column in columns where (abs(column.x) >= 64 || abs(column.y) >= 64 || abs(column.z) >= 64) { return nil }
        guard abs(origin.x) < 64, abs(origin.y) < 64, abs(origin.z) < 64 else { return nil }
        let n = 17
        for b in 0..<n {
            for g in 0..<n {
                for r in 0..<n {
                    let c = SIMD3<Float>(Float(r), Float(g), Float(b)) / Float(n - 1)
                    let fitted = origin + columns[0] * c.x + columns[1] * c.y + columns[2] * c.z
                    let error = chain(c) - fitted
                    if abs(error.x) * 255 > 0.01 || abs(error.y) * 255 > 0.01 || abs(error.z) * 255 > 0.01 { return nil }
                }
            }
        }
        var m = SIMD16<Int32>()
        let one: Float = 4096
        for row in 0..<3 {
            // Coefficients act on 8-bit levels and give levels, so they keep their 0...1 values;
            // the offset is in levels.
            m[4 * row] = Int32((columns[0][row] * one).rounded())
            m[4 * row + 1] = Int32((columns[1][row] * one).rounded())
            m[4 * row + 2] = Int32((columns[2][row] * one).rounded())
            m[4 * row + 3] = Int32((origin[row] * 255 * one).rounded())
        }
        return m
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
        case .affine: applyAffine(words, start, end)
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

    /// Eight pixels a step: channels widened to 32-bit lanes, three multiply-adds per output
    /// channel, rounded, clamped and packed back, the fourth byte kept.
    @inline(never)
    private func applyAffine(_ words: UnsafeMutableRawPointer, _ start: Int, _ end: Int) {
        let m = matrix
        let half = SIMD8<Int32>(repeating: 1 << (Self.affineShift - 1))
        let low = SIMD8<Int32>(repeating: 0), high = SIMD8<Int32>(repeating: 255)
        var x = start
        while x &+ 8 <= end {
            let w = words.loadUnaligned(fromByteOffset: x &* 4, as: SIMD8<UInt32>.self)
            let b = SIMD8<Int32>(truncatingIfNeeded: w & 0xFF)
            let g = SIMD8<Int32>(truncatingIfNeeded: (w &>> 8) & 0xFF)
            let r = SIMD8<Int32>(truncatingIfNeeded: (w &>> 16) & 0xFF)
            let outR = ((r &* m[0] &+ g &* m[1] &+ b &* m[2] &+ m[3] &+ half) &>> Self.affineShift)
                .clamped(lowerBound: low, upperBound: high)
            let outG = ((r &* m[4] &+ g &* m[5] &+ b &* m[6] &+ m[7] &+ half) &>> Self.affineShift)
                .clamped(lowerBound: low, upperBound: high)
            let outB = ((r &* m[8] &+ g &* m[9] &+ b &* m[10] &+ m[11] &+ half) &>> Self.affineShift)
                .clamped(lowerBound: low, upperBound: high)
            let packed = SIMD8<UInt32>(truncatingIfNeeded: outB) | SIMD8<UInt32>(truncatingIfNeeded: outG) &<< 8
                | SIMD8<UInt32>(truncatingIfNeeded: outR) &<< 16 | (w & 0xFF00_0000)
            words.storeBytes(of: packed, toByteOffset: x &* 4, as: SIMD8<UInt32>.self)
            x &+= 8
        }
        while x < end {
            let w = words.load(fromByteOffset: x &* 4, as: UInt32.self)
            let b = Int32(w & 0xFF), g = Int32((w >> 8) & 0xFF), r = Int32((w >> 16) & 0xFF)
            let half = Int32(1) << (Self.affineShift - 1)
            let outR = min(max((r &* m[0] &+ g &* m[1] &+ b &* m[2] &+ m[3] &+ half) >> Self.affineShift, 0), 255)
            let outG = min(max((r &* m[4] &+ g &* m[5] &+ b &* m[6] &+ m[7] &+ half) >> Self.affineShift, 0), 255)
            let outB = min(max((r &* m[8] &+ g &* m[9] &+ b &* m[10] &+ m[11] &+ half) >> Self.affineShift, 0), 255)
            words.storeBytes(of: (w & 0xFF00_0000) | UInt32(outB) | UInt32(outG) << 8 | UInt32(outR) << 16,
                             toByteOffset: x &* 4, as: UInt32.self)
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
