/// What MatteEngine's temporal stage (`blendTowardMask`) computes, pixel by pixel: the
/// specification its 64-byte scan is held to (MatteTests' TemporalReferenceTests).
///
/// `soft` holds the previous frame's alpha and moves toward this frame's `mask`; `previous` is
/// the previous frame's depth (packed), `depth` this frame's (rows `stride` apart). A pixel's
/// depth changed when it moved by more than `base` + 1/32 of the farther reading. Where the
/// alpha already equals the mask nothing happens. Elsewhere the scene is steady when the pixel's
/// depth did not change, or changed with at most one of its eight neighbours (a flying pixel,
/// a dropout): alpha then steps toward the mask by `keep`/256 of the gap, rounded up so it
/// always arrives. Where more changed (a moving edge, a band at least a pixel wide) alpha takes
/// the mask at once, so a moving subject is never dragged behind.
public enum TemporalReference {
    public static func blend(mask: [UInt8], soft: inout [UInt8], depth: [UInt16], stride: Int, previous: [UInt16],
                             width: Int, height: Int, keep: Int, base: Int) {
        func changed(_ x: Int, _ y: Int) -> Bool {
            let now = Int(depth[y * stride + x])
            let before = Int(previous[y * width + x])
            return abs(now - before) > base + max(now, before) / 32
        }
        for y in 0..<height {
            for x in 0..<width {
                let i = y * width + x
                let target = Int(mask[i])
                let alpha = Int(soft[i])
                guard target != alpha else { continue }
                var changes = 0
                if changed(x, y) {
                    for ny in (y - 1)...(y + 1) where ny >= 0 && ny < height {
                        for nx in (x - 1)...(x + 1) where nx >= 0 && nx < width && changed(nx, ny) { changes += 1 }
                    }
                }
                if changes <= 2 {
                    let step = (abs(target - alpha) * keep + 255) / 256
                    soft[i] = UInt8(target > alpha ? alpha + step : alpha - step)
                } else {
                    soft[i] = UInt8(target)
                }
            }
        }
    }
}
