/// How much of a group of pixels the person covers: none of it (alpha all 0), all of it (all
/// 255), or part. Most of a real matte is one of the first two, where the blend's arithmetic gives
/// the backdrop or the camera unchanged, so the kernels copy instead (and skip the colour
/// conversion under a transparent group, or the backdrop's read under an opaque one).
enum MatteCoverage {
    case transparent
    case opaque
    case partial

    /// Sixteen alpha bytes, tested as two 64-bit halves (no per-lane compares).
    @inline(__always)
    init(_ alpha: SIMD16<UInt8>) {
        let halves = unsafeBitCast(alpha, to: SIMD2<UInt64>.self)
        if halves[0] | halves[1] == 0 {
            self = .transparent
        } else if halves[0] & halves[1] == .max {
            self = .opaque
        } else {
            self = .partial
        }
    }

    /// Eight B G R A words (alpha in the top byte of each).
    @inline(__always)
    init(words low: SIMD4<UInt32>, _ high: SIMD4<UInt32>) {
        self.init(wordsOr: low | high, wordsAnd: low & high)
    }

    /// Any number of B G R A words, given as the OR and the AND of their vectors.
    @inline(__always)
    init(wordsOr: SIMD4<UInt32>, wordsAnd: SIMD4<UInt32>) {
        let any = unsafeBitCast(wordsOr, to: SIMD2<UInt64>.self)
        let all = unsafeBitCast(wordsAnd, to: SIMD2<UInt64>.self)
        let alphaBytes: UInt64 = 0xFF00_0000_FF00_0000
        if (any[0] | any[1]) & alphaBytes == 0 {
            self = .transparent
        } else if (all[0] & all[1]) & alphaBytes == alphaBytes {
            self = .opaque
        } else {
            self = .partial
        }
    }
}
