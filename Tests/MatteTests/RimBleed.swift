import Frames

/// How much of the camera's own background a matte lets through around the subject: the mean
/// alpha (0...255) over background pixels of the truth within `reach` pixels of the subject.
/// A perfect matte scores 0; the box feather alone leaves about half its ramp outside.
struct RimBleed {
    private(set) var sum = 0
    private(set) var pixels = 0

    mutating func add(alpha: ImageView, truth: ImageView, reach: Int = 3) {
        precondition(alpha.size == truth.size)
        let width = truth.size.width
        let height = truth.size.height
        for y in 0..<height {
            let t = truth.row(y).assumingMemoryBound(to: UInt8.self)
            let a = alpha.row(y).assumingMemoryBound(to: UInt8.self)
            for x in 0..<width where t[x] < 128 {
                var near = false
                search: for yy in max(0, y - reach)...min(height - 1, y + reach) {
                    let row = truth.row(yy).assumingMemoryBound(to: UInt8.self)
                    for xx in max(0, x - reach)...min(width - 1, x + reach) where row[xx] >= 128 {
                        near = true
                        break search
                    }
                }
                if near {
                    sum += Int(a[x])
                    pixels += 1
                }
            }
        }
    }

    var mean: Double { pixels == 0 ? 0 : Double(sum) / Double(pixels) }
}
