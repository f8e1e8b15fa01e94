/// MatteEngine's temporal blend as it was before it worked in lanes, which
/// `MatteEngine.blendTowardMask` must match byte for byte (DepthKernelIdentityTests). `soft` holds the previous
/// alpha and is moved toward `mask`; `previous` is the previous frame's depth (packed).
enum ReferenceTemporal {
    static func blend(mask: UnsafePointer<UInt8>, soft: UnsafeMutablePointer<UInt8>, depth: UnsafePointer<UInt16>,
                      stride: Int, previous: UnsafePointer<UInt16>, width: Int, height: Int, keep: Int, base: Int) {
        let previousDepth = previous
        @inline(__always) func changed(_ x: Int, _ y: Int) -> Bool {
            let d = Int(depth[y * stride + x])
            let p = Int(previousDepth[y * width + x])
            return abs(d - p) > base + (max(d, p) >> 5)
        }
        for y in 0..<height {
            let fresh = mask + y * width
            let soft = soft + y * width
            var x = 0
            while x < width {
                if x + 8 <= width && UnsafeRawPointer(fresh + x).loadUnaligned(as: UInt64.self)
                    == UnsafeRawPointer(soft + x).loadUnaligned(as: UInt64.self) {
                    x += 8
                    continue
                }
                let end = min(width, x + 8)
                while x < end {
                    let m = Int(fresh[x])
                    let a = Int(soft[x])
                    if m != a {
                        var moved = 0
                        if changed(x, y) {
                            moved = 1
                            neighbourhood: for yy in max(0, y - 1)...min(height - 1, y + 1) {
                                for xx in max(0, x - 1)...min(width - 1, x + 1)
                                where (xx != x || yy != y) && changed(xx, yy) {
                                    moved += 1
                                    if moved > 2 { break neighbourhood }
                                }
                            }
                        }
                        if moved <= 2 {
                            let step = ((m > a ? m - a : a - m) * keep + 255) >> 8
                            soft[x] = UInt8(m > a ? a + step : a - step)
                        } else {
                            soft[x] = UInt8(m)
                        }
                    }
                    x += 1
                }
            }
        }
    }
}
