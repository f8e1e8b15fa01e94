/// Sixteen scattered samples (three channels and alpha) collected for the vector kernels when the
/// camera is scaled. Bytes are stored through the vectors' own memory: setting SIMD lanes by
/// subscript compiles to a slow element loop, plain byte stores followed by one vector load do not.
/// Lives on the stack; never allocates.
struct GatheredPixels {
    var firstBytes = SIMD16<UInt8>()
    var secondBytes = SIMD16<UInt8>()
    var thirdBytes = SIMD16<UInt8>()
    var alpha = SIMD16<UInt8>()

    @inline(__always)
    mutating func gather(_ sample: (Int) -> (UInt8, UInt8, UInt8, UInt8)) {
        withUnsafeMutableBytes(of: &firstBytes) { first in
            withUnsafeMutableBytes(of: &secondBytes) { second in
                withUnsafeMutableBytes(of: &thirdBytes) { third in
                    withUnsafeMutableBytes(of: &alpha) { matte in
                        for lane in 0..<16 {
                            let value = sample(lane)
                            first[lane] = value.0
                            second[lane] = value.1
                            third[lane] = value.2
                            matte[lane] = value.3
                        }
                    }
                }
            }
        }
    }

    @inline(__always) var first: SIMD16<Int16> { Self.widen(firstBytes) }
    @inline(__always) var second: SIMD16<Int16> { Self.widen(secondBytes) }
    @inline(__always) var third: SIMD16<Int16> { Self.widen(thirdBytes) }

    /// Zero-extends bytes to 16-bit lanes in two halves: the 16-lane conversion stays an
    /// out-of-line call on arm64, the 8-lane one becomes a single ushll.
    @inline(__always)
    static func widen(_ bytes: SIMD16<UInt8>) -> SIMD16<Int16> {
        SIMD16(lowHalf: SIMD8<Int16>(truncatingIfNeeded: bytes.lowHalf),
               highHalf: SIMD8<Int16>(truncatingIfNeeded: bytes.highHalf))
    }
}
