/// out = round((fg * a + bg * (255 - a)) / 255) per channel, exactly. 255 is odd, so the exact
/// quotient is never a tie. The division uses (t + 128 + ((t + 128) >> 8)) >> 8, which equals
/// round(t / 255) for every t in 0...65025 (the tests check all of them), so everything stays in
/// 16-bit lanes.
enum AlphaBlend {
    @inline(__always)
    static func divide255(_ t: Int32) -> Int32 {
        let biased = t &+ 128
        return (biased &+ (biased &>> 8)) &>> 8
    }

    @inline(__always)
    static func blend(_ fg: Int32, _ bg: Int32, alpha: Int32) -> Int32 {
        divide255(fg &* alpha &+ bg &* (255 &- alpha))
    }

    @inline(__always)
    static func divide255(_ t: SIMD16<UInt16>) -> SIMD16<UInt16> {
        SIMD16(lowHalf: divide255(t.lowHalf), highHalf: divide255(t.highHalf))
    }

    @inline(__always)
    static func blend(_ fg: SIMD16<UInt16>, _ bg: SIMD16<UInt16>, alpha: SIMD16<UInt16>) -> SIMD16<UInt16> {
        divide255(fg &* alpha &+ bg &* (SIMD16(repeating: 255) &- alpha))
    }

    @inline(__always)
    static func divide255(_ t: SIMD8<UInt16>) -> SIMD8<UInt16> {
        let biased = t &+ 128
        return (biased &+ (biased &>> 8)) &>> 8
    }
}
