import KernelIO

/// ColourEdges' two-colour decision for a whole run of pixels, four lanes at a time.
///
/// The per-pixel arithmetic (subject and background means, the projection of the pixel's colour
/// on the line between them, the off-line test, the division by |F - B|^2) was the matte's
/// hottest code, and scalar: the means divided three channels by the sample count and alpha
/// divided by the contrast, each an integer division per pixel. Here every step is exact lane
/// arithmetic the compiler lowers to NEON (and SSE/AVX): the means by small-count reciprocals, the
/// dot products in float lanes (exact for these integers), the division by a float quotient
/// corrected to the exact one, the
/// off-line test in double lanes (exact: every product is an integer below 2^53). Branch-free selects are written
/// with sign masks, not pointwiseMin/Max or replacing(with:where:), which stay out-of-line calls
/// in the optimised build. `ColourEdges.alpha(...)` is the scalar formula this must equal for
/// every input (EdgeLanesTests checks it; the matte tests compare whole mattes both ways).
///
/// Buffers are allocated in init; `solve` allocates nothing. Not thread-safe.
final class EdgeLanes {
    /// Four lanes: one NEON register of 32-bit lanes, and runs are short (about ten pixels), so
    /// wider lanes would mostly compute padding.
    static let width = 4
    typealias Lanes = SIMD4<Int32>

    let capacity: Int
    private let memory: AlignedBuffer
    /// Inputs per pixel: the sums of the subject's and the background's sample colours and how
    /// many samples each (0...3; 0 = none), and the pixel's own colour.
    let subjectR, subjectG, subjectB, subjectCount: UnsafeMutablePointer<Int32>
    let groundR, groundG, groundB, groundCount: UnsafeMutablePointer<Int32>
    let colourR, colourG, colourB: UnsafeMutablePointer<Int32>
    /// Output per pixel: alpha 0...255 where colour decides, -1 where it says nothing.
    let alpha: UnsafeMutablePointer<Int32>

    init(capacity: Int) throws(SystemError) {
        self.capacity = capacity
        // The colour rows are written 16 lanes at a time from up to two before their start
        // (ColourProbe.colours, from the sure pixel before a run) to 15 past their end: 16
        // elements of room before each row and 16 after it.
        let stride = capacity + 32
        var layout = BufferLayout()
        let storageSlot = layout.reserve(Int32.self, count: 12 * stride)
        memory = try AlignedBuffer(layout: layout)
        let storage = memory.pointer(storageSlot)
        subjectR = storage
        subjectG = storage + stride
        subjectB = storage + 2 * stride
        subjectCount = storage + 3 * stride
        groundR = storage + 4 * stride
        groundG = storage + 5 * stride
        groundB = storage + 6 * stride
        groundCount = storage + 7 * stride
        colourR = storage + 8 * stride + 16
        colourG = storage + 9 * stride + 16
        colourB = storage + 10 * stride + 16
        alpha = storage + 11 * stride
    }

    /// The dot products (along, length, contrast) are taken in float lanes: every term is an
    /// integer product of two values within -255...255 and every sum below 2^18, so the floats
    /// are exact, and a float multiply is one instruction where a 32-bit integer one is six on
    /// SSE2 (no pmulld).
    typealias Floats = SIMD4<Float>

    @inline(__always)
    private static func dot(_ a: (Floats, Floats, Floats), _ b: (Floats, Floats, Floats)) -> Floats {
        a.0 * b.0 + a.1 * b.1 + a.2 * b.2
    }

    /// An integer-valued float within +-2^22 as an integer: by the 1.5 x 2^23 bias, which leaves
    /// the value in the mantissa's low bits (the SIMD conversion initialiser stays an out-of-line
    /// generic call).
    @inline(__always)
    private static func exact(_ value: Floats) -> Lanes {
        unsafeBitCast(value + Floats(repeating: 12_582_912), to: Lanes.self) &- 0x4B40_0000
    }

    @inline(__always)
    private static func load(_ p: UnsafeMutablePointer<Int32>, _ i: Int) -> Lanes {
        UnsafeRawPointer(p + i).loadUnaligned(as: Lanes.self)
    }

    /// All ones where `value` < 0, else 0.
    @inline(__always)
    private static func negative(_ value: Lanes) -> Lanes { value &>> 31 }

    /// The mean of a colour sum over `count` samples (1...3; exact: for sums up to 765,
    /// (s * ceil(65536 / n)) >> 16 == s / n).
    @inline(__always)
    private static func mean(_ sum: Lanes, _ reciprocal: Lanes) -> Lanes { (sum &* reciprocal) &>> 16 }

    @inline(__always)
    private static func reciprocal(_ count: Lanes) -> Lanes {
        // 65536 for 1 (and 0, unused), 32768 for 2, 21846 for 3.
        Lanes(repeating: 65536) &- (negative(1 &- count) & 32768) &- (negative(2 &- count) & 10922)
    }

    /// Decides pixels 0..<count (at most `capacity`).
    @inline(never)
    func solve(count: Int) {
        precondition(count <= capacity)
        // The lanes past the end must decide nothing (and read initialised memory).
        for i in count..<(count + Self.width) {
            subjectCount[i] = 0
            groundCount[i] = 0
        }
        var i = 0
        while i < count {
            let sn = Self.load(subjectCount, i)
            let gn = Self.load(groundCount, i)
            // Both sides sampled: all ones where subject and background counts are above 0.
            let both = Self.negative(0 &- sn) & Self.negative(0 &- gn)
            let sr = Self.reciprocal(sn)
            let gr = Self.reciprocal(gn)
            let bR = Self.mean(Self.load(groundR, i), gr)
            let bG = Self.mean(Self.load(groundG, i), gr)
            let bB = Self.mean(Self.load(groundB, i), gr)
            let difference = (Floats(Self.mean(Self.load(subjectR, i), sr) &- bR),
                              Floats(Self.mean(Self.load(subjectG, i), sr) &- bG),
                              Floats(Self.mean(Self.load(subjectB, i), sr) &- bB))
            let contrast = Self.exact(Self.dot(difference, difference))
            let contrasted = ~Self.negative(contrast &- Lanes(repeating: Int32(ColourEdges.minimumContrast)))
            // (A contrast of 0, in lanes that decide nothing, divides by 1 instead.)
            let divisor = contrast | (Self.negative(contrast &- 1) & 1)
            let alpha = Self.project(colourR: Self.load(colourR, i), colourG: Self.load(colourG, i),
                                     colourB: Self.load(colourB, i), ground: (Floats(bR), Floats(bG), Floats(bB)),
                                     difference: difference, contrast: contrast, divisor: Floats(divisor))
            let decided = both & contrasted
            UnsafeMutableRawPointer(self.alpha + i).storeBytes(of: (alpha & decided) | ~decided, as: Lanes.self)
            i += Self.width
        }
    }

    /// |F - B|^2 of one subject and one background colour: `solve(count:subject:ground:)` wants
    /// at least ColourEdges.minimumContrast (below it colour decides nothing).
    @inline(__always)
    static func contrast(subject: SIMD3<Int32>, ground: SIMD3<Int32>) -> Int32 {
        // Scalar multiplies: a 3-lane one is the SSE2 32-bit multiply's shuffles again.
        let r = subject.x &- ground.x, g = subject.y &- ground.y, b = subject.z &- ground.z
        return r &* r &+ g &* g &+ b &* b
    }

    /// `solve` where every pixel has the same single subject sample and single background sample
    /// (a run whose two ends serve all its pixels, the common case), contrasted enough: means,
    /// difference, contrast and divisor are the run's, not the lane's, so the sample rows are not
    /// filled or read and each lane only projects its own colour. The same alpha as `solve` with
    /// those samples in every lane; lanes past `count` are left undefined.
    @inline(__always)
    func solve(count: Int, subject: SIMD3<Int32>, ground: SIMD3<Int32>) {
        precondition(count <= capacity)
        let c = Self.contrast(subject: subject, ground: ground)
        precondition(Int(c) >= ColourEdges.minimumContrast)
        let d = subject &- ground
        let ground = (Floats(repeating: Float(ground.x)), Floats(repeating: Float(ground.y)), Floats(repeating: Float(ground.z)))
        let difference = (Floats(repeating: Float(d.x)), Floats(repeating: Float(d.y)), Floats(repeating: Float(d.z)))
        let contrast = Lanes(repeating: c)
        let divisor = Floats(repeating: Float(c))
        var i = 0
        while i < count {
            let alpha = Self.project(colourR: Self.load(colourR, i), colourG: Self.load(colourG, i),
                                     colourB: Self.load(colourB, i), ground: ground, difference: difference,
                                     contrast: contrast, divisor: divisor)
            UnsafeMutableRawPointer(self.alpha + i).storeBytes(of: alpha, as: Lanes.self)
            i += Self.width
        }
    }

    /// The pixel's colour I placed on the line from B (`ground`) to F (B + `difference`):
    /// alpha 0...255, or -1 (all ones) where I lies too far off the line. `contrast` is
    /// |F - B|^2, `divisor` the same as floats (1 where the contrast is 0).
    @inline(__always)
    private static func project(colourR: Lanes, colourG: Lanes, colourB: Lanes, ground: (Floats, Floats, Floats),
                                difference: (Floats, Floats, Floats), contrast: Lanes, divisor: Floats) -> Lanes {
        let e = (Floats(colourR) - ground.0, Floats(colourG) - ground.1, Floats(colourB) - ground.2)
        let along = exact(dot(e, difference))
        let length = exact(dot(e, e))
        // length * contrast - along^2 <= contrast^2: up to 3.8e10, exact in doubles (below 2^53).
        let cD = SIMD4<Double>(contrast)
        let aD = SIMD4<Double>(along)
        let offD = SIMD4<Double>(length) * cD - aD * aD
        // The sign bit of contrast^2 - off (+0 when equal): all ones where off <= contrast^2.
        let margin = unsafeBitCast(cD * cD - offD, to: SIMD4<Int64>.self)
        let near = ~Lanes(truncatingIfNeeded: margin &>> 63)
        // alpha = clamp((along * 255 + contrast / 2) / contrast, 0, 255): along clamped to
        // 0...contrast first gives the same quotient and keeps it within 8 bits.
        let positive = along & ~negative(along)
        let over = positive &- contrast
        let clamped = contrast &+ (over & negative(over))
        let numerator = clamped &* 255 &+ (contrast &>> 1)
        // The quotient from a float division, then put right by one step either way: the float
        // error is far below one (numerator < 2^26, contrast exact), so one step is enough.
        // Float to integer by the 1.5 x 2^23 bias (round to nearest, within one of the floor):
        // the SIMD conversion initialiser stays an out-of-line generic call.
        let biased = SIMD4<Float>(numerator) / divisor + SIMD4<Float>(repeating: 12_582_912)
        // One product (a 32-bit multiply is six instructions on SSE2): the remainder of the
        // estimate, less the contrast once if the estimate was one short, says both steps.
        var quotient = unsafeBitCast(biased, to: Lanes.self) &- 0x4B40_0000
        var remainder = numerator &- quotient &* contrast
        let short = ~negative(remainder &- contrast)
        quotient &-= short
        remainder &-= contrast & short
        quotient &-= negative(remainder) & 1
        return (quotient & near) | ~near
    }
}
