/// SplitMix64, written out here rather than taken from the standard library: Swift's
/// SystemRandomNumberGenerator is not seedable and the standard library promises no particular
/// seeded algorithm, while tests need the same noise on every platform, every run, and for any
/// frame in any order (each row of each frame starts its own stream). Ten lines, no state but a
/// UInt64.
struct SyntheticRandom {
    private var state: UInt64

    init(seed: UInt64, frame: Int, stream: Int) {
        state = seed ^ (UInt64(truncatingIfNeeded: frame) &* 0x9E37_79B9_7F4A_7C15)
            ^ (UInt64(truncatingIfNeeded: stream) &* 0xD1B5_4A32_D192_ED03)
        _ = next()
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z &>> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z &>> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z &>> 31)
    }

    /// Uniform in [0, 1).
    mutating func unit() -> Float {
        Float(next() &>> 40) * (1.0 / 16_777_216.0)
    }

    /// Roughly standard normal: the sum of four 12-bit uniforms (Irwin-Hall), centred and scaled
    /// to unit variance, bounded at about ±3.5 as a sensor's noise is anyway; plus a 16-bit
    /// uniform from the same draw, so one call serves a pixel's noise and its dropout roll.
    mutating func gaussianAndUniform() -> (Float, Float) {
        let bits = next()
        let sum = (bits & 0xFFF) + ((bits &>> 12) & 0xFFF) + ((bits &>> 24) & 0xFFF) + ((bits &>> 36) & 0xFFF)
        let gaussian = (Float(sum) * (1.0 / 4096.0) - 2) * 1.7320508
        return (gaussian, Float(bits &>> 48) * (1.0 / 65536.0))
    }
}
