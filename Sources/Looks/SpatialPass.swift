/// The spatial steps on a whole image of B G R X words (the decoded backdrop, an offline
/// render). Run once when the image is prepared, never per frame: they allocate a row of
/// scratch and read neighbours.
public enum SpatialPass {
    /// `pixels`: `height` rows of `width` words, `rowBytes` apart.
    public static func apply(_ steps: [LookStep], to pixels: UnsafeMutableRawPointer, width: Int, height: Int,
                             rowBytes: Int) {
        for step in steps {
            switch step {
            case .blur(let radius):
                // Three box passes each way: close to a Gaussian of sigma ~ radius / 1.7.
                for _ in 0..<3 {
                    boxRows(pixels, width: width, height: height, rowBytes: rowBytes, radius: radius)
                    boxColumns(pixels, width: width, height: height, rowBytes: rowBytes, radius: radius)
                }
            case .pixellate(let size):
                pixellate(pixels, width: width, height: height, rowBytes: rowBytes, size: size)
            default:
                break
            }
        }
    }

    /// A running-sum box mean along a line of `count` words `step` bytes apart, edges clamped.
    private static func boxLine(_ base: UnsafeMutableRawPointer, count: Int, step: Int, radius: Int,
                                scratch: UnsafeMutablePointer<UInt32>) {
        for i in 0..<count { scratch[i] = base.load(fromByteOffset: i * step, as: UInt32.self) }
        let window = Int32(2 * radius + 1)
        var sum = SIMD4<Int32>()
        @inline(__always) func channels(_ w: UInt32) -> SIMD4<Int32> {
            SIMD4(Int32(w & 0xFF), Int32((w >> 8) & 0xFF), Int32((w >> 16) & 0xFF), Int32(w >> 24))
        }
        for i in -radius...radius { sum &+= channels(scratch[min(max(i, 0), count - 1)]) }
        for i in 0..<count {
            let mean = (sum &+ window / 2) / window
            let word = UInt32(mean[0]) | UInt32(mean[1]) << 8 | UInt32(mean[2]) << 16 | UInt32(mean[3]) << 24
            base.storeBytes(of: word, toByteOffset: i * step, as: UInt32.self)
            sum &+= channels(scratch[min(i + radius + 1, count - 1)]) &- channels(scratch[max(i - radius, 0)])
        }
    }

    private static func boxRows(_ pixels: UnsafeMutableRawPointer, width: Int, height: Int, rowBytes: Int, radius: Int) {
        let scratch = UnsafeMutablePointer<UInt32>.allocate(capacity: width)
        defer { scratch.deallocate() }
        for y in 0..<height { boxLine(pixels + y * rowBytes, count: width, step: 4, radius: radius, scratch: scratch) }
    }

    private static func boxColumns(_ pixels: UnsafeMutableRawPointer, width: Int, height: Int, rowBytes: Int, radius: Int) {
        let scratch = UnsafeMutablePointer<UInt32>.allocate(capacity: height)
        defer { scratch.deallocate() }
        for x in 0..<width { boxLine(pixels + x * 4, count: height, step: rowBytes, radius: radius, scratch: scratch) }
    }

    private static func pixellate(_ pixels: UnsafeMutableRawPointer, width: Int, height: Int, rowBytes: Int, size: Int) {
        var top = 0
        while top < height {
            let bottom = min(top + size, height)
            var left = 0
            while left < width {
                let right = min(left + size, width)
                var sum = SIMD4<Int32>()
                for y in top..<bottom {
                    for x in left..<right {
                        let w = pixels.load(fromByteOffset: y * rowBytes + x * 4, as: UInt32.self)
                        sum &+= SIMD4(Int32(w & 0xFF), Int32((w >> 8) & 0xFF), Int32((w >> 16) & 0xFF), Int32(w >> 24))
                    }
                }
                let count = Int32((bottom - top) * (right - left))
                let mean = (sum &+ count / 2) / count
                let word = UInt32(mean[0]) | UInt32(mean[1]) << 8 | UInt32(mean[2]) << 16 | UInt32(mean[3]) << 24
                for y in top..<bottom {
                    for x in left..<right { pixels.storeBytes(of: word, toByteOffset: y * rowBytes + x * 4, as: UInt32.self) }
                }
                left = right
            }
            top = bottom
        }
    }
}
