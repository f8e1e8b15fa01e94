/// What FloorTracker computes, over an array of points: the specification it is held to
/// (MatteTests' FloorReferenceTests). FloorTracker is itself plain code on preallocated
/// columns of floats; this restates its rules one by one, in the same arithmetic order (the
/// fit is a float computation, and the same floor must come out to the bit).
///
/// Each frame: points (x, y, z in millimetres: the ray times the reading) from the lower 45 % of
/// the view, on a grid whose step keeps them near 2500 (odd grid rows shifted half a step), at
/// most 5000. A floor needs max(60, 10 % of the points) inliers (within 40 mm of the plane).
/// Candidates: last frame's plane refitted, then 16 (or 64 with no candidate yet) planes
/// through three points drawn by a fixed-seed xorshift, each kept only if plausible (normal
/// within the camera's tilt and roll limits, 0.3-3.5 m below the camera); the one with the most
/// inliers is refitted by least squares (y = a x + b z + d over its inliers) and must still be
/// plausible, have enough inliers, put inliers on 35 % of the sampled rows (3 a row), have at
/// most 3 % of the points more than 120 mm below it, and spread its inliers' depth by 150 mm.
public struct FloorReference {
    public struct Plane: Equatable {
        public var nx: Float
        public var ny: Float
        public var nz: Float
        public var offset: Float
    }

    struct Point {
        var x: Float
        var y: Float
        var z: Float
        var row: Int
    }

    public static let capacity = 5000
    public static let inlierMM: Float = 40

    public private(set) var plane: Plane?
    private var random: UInt64 = 0x2545_F491_4F6C_DD1D

    public init() {}

    public mutating func update(depth: [UInt16], stride: Int, width: Int, height: Int, unit: Float,
                                rayX: [Float], rayY: [Float]) {
        let (points, sampledRows) = Self.sample(depth: depth, stride: stride, width: width, height: height, unit: unit,
                                                rayX: rayX, rayY: rayY)
        let needed = max(60, points.count * 10 / 100)
        guard points.count >= 3 else {
            plane = nil
            return
        }
        var best: Plane?
        var bestScore = 0
        if let previous = plane, let refitted = Self.refit(previous, points) {
            best = refitted
            bestScore = Self.inliers(refitted, points)
        }
        for _ in 0..<(best == nil ? 64 : 16) {
            guard let candidate = hypothesis(points) else { continue }
            let score = Self.inliers(candidate, points)
            if score > bestScore {
                bestScore = score
                best = candidate
            }
        }
        guard let found = best, bestScore >= needed, let refitted = Self.refit(found, points),
              Self.inliers(refitted, points) >= needed,
              Self.looksLikeAFloor(refitted, points, sampledRows: sampledRows) else {
            plane = nil
            return
        }
        plane = refitted
    }

    static func sample(depth: [UInt16], stride: Int, width: Int, height: Int, unit: Float, rayX: [Float],
                       rayY: [Float]) -> ([Point], Int) {
        let top = height * 55 / 100
        var step = 1
        while width * (height - top) / (step * step) > capacity / 2 { step += 1 }
        var points: [Point] = []
        var sampledRows = 0
        for y in Swift.stride(from: top, to: height, by: step) {
            for x in Swift.stride(from: (y / step) % 2 == 0 ? 0 : step / 2, to: width, by: step) where points.count < capacity {
                let raw = depth[y * stride + x]
                guard raw != 0 else { continue }
                let z = Float(raw) * unit
                points.append(Point(x: rayX[x] * z, y: rayY[y] * z, z: z, row: sampledRows))
            }
            sampledRows += 1
        }
        return (points, sampledRows)
    }

    static func distance(_ plane: Plane, _ p: Point) -> Float {
        plane.nx * p.x + plane.ny * p.y + plane.nz * p.z - plane.offset
    }

    static func inliers(_ plane: Plane, _ points: [Point]) -> Int {
        points.filter { abs(distance(plane, $0)) <= inlierMM }.count
    }

    static func plausible(_ plane: Plane) -> Bool {
        plane.ny >= 0.83 && abs(plane.nx) <= 0.3 && plane.nz <= 0.55 && plane.nz >= -0.2
            && plane.offset >= 300 && plane.offset <= 3500
    }

    private mutating func draw(_ count: Int) -> Int {
        random ^= random << 13
        random ^= random >> 7
        random ^= random << 17
        return Int(truncatingIfNeeded: random % UInt64(count))
    }

    /// The plane through three drawn points, its normal pointing down the image (y > 0).
    private mutating func hypothesis(_ points: [Point]) -> Plane? {
        let a = points[draw(points.count)]
        let b = points[draw(points.count)]
        let c = points[draw(points.count)]
        let u = (b.x - a.x, b.y - a.y, b.z - a.z)
        let v = (c.x - a.x, c.y - a.y, c.z - a.z)
        var n = (u.1 * v.2 - u.2 * v.1, u.2 * v.0 - u.0 * v.2, u.0 * v.1 - u.1 * v.0)
        let length = (n.0 * n.0 + n.1 * n.1 + n.2 * n.2).squareRoot()
        guard length > 1e-3 else { return nil }
        if n.1 < 0 { n = (-n.0, -n.1, -n.2) }
        n = (n.0 / length, n.1 / length, n.2 / length)
        let plane = Plane(nx: n.0, ny: n.1, nz: n.2, offset: n.0 * a.x + n.1 * a.y + n.2 * a.z)
        return Self.plausible(plane) ? plane : nil
    }

    /// Least squares y = a x + b z + d over the inliers, by Cramer's rule on the normal equations.
    static func refit(_ plane: Plane, _ points: [Point]) -> Plane? {
        var sxx = 0.0, sxz = 0.0, sx = 0.0, szz = 0.0, sz = 0.0, n = 0.0, sxy = 0.0, szy = 0.0, sy = 0.0
        for p in points where abs(distance(plane, p)) <= inlierMM {
            let x = Double(p.x), y = Double(p.y), z = Double(p.z)
            sxx += x * x; sxz += x * z; sx += x; szz += z * z; sz += z; n += 1
            sxy += x * y; szy += z * y; sy += y
        }
        guard n >= 3 else { return nil }
        let det = sxx * (szz * n - sz * sz) - sxz * (sxz * n - sz * sx) + sx * (sxz * sz - szz * sx)
        guard abs(det) > 1e-9 else { return nil }
        let a = (sxy * (szz * n - sz * sz) - sxz * (szy * n - sz * sy) + sx * (szy * sz - szz * sy)) / det
        let b = (sxx * (szy * n - sy * sz) - sxy * (sxz * n - sz * sx) + sx * (sxz * sy - szy * sx)) / det
        let d = (sxx * (szz * sy - sz * szy) - sxz * (sxz * sy - sx * szy) + sxy * (sxz * sz - szz * sx)) / det
        let length = Float((a * a + b * b + 1).squareRoot())
        let refitted = Plane(nx: Float(-a) / length, ny: 1 / length, nz: Float(-b) / length, offset: Float(d) / length)
        return plausible(refitted) ? refitted : nil
    }

    static func looksLikeAFloor(_ plane: Plane, _ points: [Point], sampledRows: Int) -> Bool {
        var hitsPerRow = [Int](repeating: 0, count: sampledRows)
        var n: Float = 0
        var sum: Float = 0
        var squares: Float = 0
        var below = 0
        for p in points {
            let distance = distance(plane, p)
            if distance > 3 * inlierMM { below += 1 }
            guard abs(distance) <= inlierMM else { continue }
            hitsPerRow[p.row] += 1
            n += 1
            sum += p.z
            squares += p.z * p.z
        }
        let covered = hitsPerRow.filter { $0 >= 3 }.count
        guard n >= 2 && covered * 100 >= sampledRows * 35 && below * 100 <= points.count * 3 else { return false }
        let mean = sum / n
        return squares / n - mean * mean >= 150 * 150
    }
}
