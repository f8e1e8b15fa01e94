/// BT.601 limited range (Y 16...235, Cb/Cr 16...240) to full-range RGB in integer fixed point.
///
/// Exact formula: R = 255/219 (Y-16) + 1.402 * 255/224 (Cr-128), G = 255/219 (Y-16)
/// - 0.344136 * 255/224 (Cb-128) - 0.714136 * 255/224 (Cr-128), B = 255/219 (Y-16)
/// + 1.772 * 255/224 (Cb-128), clamped to 0...255. The integer version keeps 6 fraction bits:
/// Y scale 74 + 66/128 (= 74.516 vs 74.521), chroma 102, 25, 52, 129 (x64), and stays within
/// 0.78 of the exact value for every one of the 2^24 inputs (the tests check all of them).
/// The SIMD form uses 16-bit lanes only: intermediates are biased by -15040 so their whole range
/// (-17672...34224 before the bias) fits Int16.
public enum YCbCr {
    /// Scalar reference and tail/gather path; the SIMD form below produces identical results.
    @inlinable @inline(__always)
    public static func rgb(y: Int32, cb: Int32, cr: Int32) -> (r: Int32, g: Int32, b: Int32) {
        let luma = y &* 74 &+ ((y &* 66) &>> 7) &- 1160  // -1160 = -16 * 74.52 + 32 (rounding)
        let u = cb &- 128
        let v = cr &- 128
        return (channel(luma &+ v &* 102), channel(luma &- u &* 25 &- v &* 52), channel(luma &+ u &* 129))
    }

    // Inlinable, as the forms that call it are: without it other modules call it out of line
    // (a call per channel).
    @inlinable @inline(__always)
    static func channel(_ fixed: Int32) -> Int32 { min(max(fixed &>> 6, 0), 255) }

    /// Eight or sixteen pixels at once (any Int16 lanes); inputs are 0...255 per lane, outputs
    /// 0...255.
    @inlinable @inline(__always)
    public static func rgb<Lanes: SIMD>(y: Lanes, cb: Lanes, cr: Lanes) -> (r: Lanes, g: Lanes, b: Lanes)
        where Lanes.Scalar == Int16 {
        let luma = y &* 74 &+ ((y &* 66) &>> 7) &+ (-1160 &- 15040)
        let u = cb &- 128
        let v = cr &- 128
        return (simdChannel(luma &+ v &* 102), simdChannel(luma &- u &* 25 &- v &* 52),
                simdChannel(luma &+ u &* 129))
    }

    /// Undoes the -15040 bias (= -235 * 64, so it commutes with the floor shift) and clamps to
    /// 0...255 with shifts and masks. Written out rather than with pointwiseMin/Max because those
    /// stay out-of-line calls in the optimised build and cost more than the arithmetic.
    @inlinable @inline(__always)
    static func simdChannel<Lanes: SIMD>(_ biased: Lanes) -> Lanes where Lanes.Scalar == Int16 {
        let shifted = (biased &>> 6) &+ 235
        let nonNegative = shifted & ~(shifted &>> 15)
        return (nonNegative | ((Lanes(repeating: 255) &- nonNegative) &>> 15)) & 0xFF
    }
}
