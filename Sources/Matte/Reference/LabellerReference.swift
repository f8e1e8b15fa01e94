/// What RunLabeller computes, pixel by pixel and without runs: the specification its run form
/// is held to (MatteTests' LabellerReferenceTests). Slow on purpose; for tests only.
///
/// The class map has three codes (the same as RunLabeller's): 0 background, 1 hole (no depth
/// reading), 2 foreground. The mask is 255 on the subject, else 0.
///  1. Holes: each 4-connected component of holes counts its contacts, one per pixel side it
///     shares with a foreground pixel (inside) or a background pixel or the frame's edge
///     (outside). The top and bottom edges count once per pixel of the first and last rows, so
///     once, not twice, on a one-row frame; the side edges once per row each. A hole becomes
///     foreground when it has an inside contact and at least `holeFillPercent` of its contacts
///     are inside; otherwise background.
///  2. On that two-class picture, 4-connected components again: a foreground one is kept when it
///     has at least `minimumBlob` pixels; a background one that touches no frame edge and has
///     fewer than minimumBlob / 4 pixels (integer division) becomes foreground (noise inside a
///     person); every other background pixel stays 0.
/// A frame with more runs (maximal stretches of one class in a row) than `capacity` is too
/// noisy to label: nil, as RunLabeller returns false for it.
public enum LabellerReference {
    public static let background: UInt8 = 0
    public static let hole: UInt8 = 1
    public static let foreground: UInt8 = 2
    public static let holeFillPercent = 60

    public static func runCount(classes: [UInt8], width: Int, height: Int) -> Int {
        var runs = 0
        for y in 0..<height {
            for x in 0..<width where x == 0 || classes[y * width + x] != classes[y * width + x - 1] { runs += 1 }
        }
        return runs
    }

    public static func label(classes: [UInt8], width: Int, height: Int, minimumBlob: Int, capacity: Int) -> [UInt8]? {
        precondition(classes.count == width * height && classes.allSatisfy { $0 <= foreground })
        guard runCount(classes: classes, width: width, height: height) <= capacity else { return nil }

        // 1. Holes filled or not, from what surrounds each.
        let first = PixelComponents(width: width, height: height) { classes[$0] == classes[$1] }
        var inside = [Int](repeating: 0, count: first.count)
        var outside = [Int](repeating: 0, count: first.count)
        for y in 0..<height {
            for x in 0..<width where classes[y * width + x] == hole {
                let c = first.id[y * width + x]
                if x == 0 { outside[c] += 1 }
                if x == width - 1 { outside[c] += 1 }
                if y == 0 || y == height - 1 { outside[c] += 1 }
                for (nx, ny) in [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)]
                    where nx >= 0 && nx < width && ny >= 0 && ny < height {
                    switch classes[ny * width + nx] {
                    case foreground: inside[c] += 1
                    case background: outside[c] += 1
                    default: break
                    }
                }
            }
        }
        let subject = (0..<(width * height)).map { i -> Bool in
            switch classes[i] {
            case foreground: return true
            case hole:
                let c = first.id[i]
                return inside[c] > 0 && inside[c] * 100 >= holeFillPercent * (inside[c] + outside[c])
            default: return false
            }
        }

        // 2. Specks dropped, small enclosed gaps filled.
        let second = PixelComponents(width: width, height: height) { subject[$0] == subject[$1] }
        var area = [Int](repeating: 0, count: second.count)
        var touchesEdge = [Bool](repeating: false, count: second.count)
        for y in 0..<height {
            for x in 0..<width {
                let c = second.id[y * width + x]
                area[c] += 1
                if x == 0 || y == 0 || x == width - 1 || y == height - 1 { touchesEdge[c] = true }
            }
        }
        return (0..<(width * height)).map { i -> UInt8 in
            let c = second.id[i]
            let kept = subject[i] ? area[c] >= minimumBlob : !touchesEdge[c] && area[c] < minimumBlob / 4
            return kept ? 255 : 0
        }
    }
}
