import KernelIO

/// The floor as a plane in the work grid's camera frame (millimetres, y down): n·P = offset, with
/// |n| = 1 and n.y > 0, so `offset` is the camera's height above the floor.
///
/// Found by RANSAC on 3D points sampled from the lower part of the view (camera tilt unknown:
/// any plane whose normal says the camera looks at most about 33 degrees down or 12 up (pitch)
/// and leans at most 17 degrees sideways (roll: booth cameras stand about level); steeper planes
/// are a body's or a wall's front, which RANSAC would otherwise happily call a floor and that lies 0.3-3.5 m below the
/// camera qualifies), refined by least squares on its inliers, and tracked:
/// each frame the previous plane competes with a few fresh hypotheses, so the floor neither
/// jumps nor is lost when people cover part of it. With no floor in view (too few inliers) there
/// is no plane and the matte ignores the floor.
///
/// The rays can come from approximate intrinsics: a pinhole with the wrong focal length maps
/// planes to planes, so the fit stays valid and only the millimetre tolerances are a little off.
/// Every buffer is allocated in `init`; `update` allocates nothing. Not thread-safe.
final class FloorTracker {
    struct Plane: Equatable {
        var nx: Float
        var ny: Float
        var nz: Float
        var offset: Float
    }

    private(set) var plane: Plane?
    /// Points within this of a candidate plane count as its inliers, millimetres.
    static let inlierMM: Float = 40
    static let freshIterations = 64
    static let trackingIterations = 16
    /// Share of the sampled points (percent) that must lie on the floor for it to count.
    static let minimumInlierPercent = 10
    static let minimumInliers = 60

    private let capacity: Int
    private let xs: UnsafeMutablePointer<Float>
    private let ys: UnsafeMutablePointer<Float>
    private let zs: UnsafeMutablePointer<Float>
    /// Which sampled row each point came from, and how many rows were sampled.
    private let rows: UnsafeMutablePointer<Int32>
    private let rowHits: UnsafeMutablePointer<Int32>
    private let memory: AlignedBuffer
    private var sampledRows = 0
    private var count = 0
    /// A fixed-seed generator: the same frames give the same floor on every run.
    private var random: UInt64 = 0x2545_F491_4F6C_DD1D

    init(width: Int, height: Int) throws(SystemError) {
        capacity = max(16, 2 * 2500)
        var layout = BufferLayout()
        let xsSlot = layout.reserve(Float.self, count: capacity)
        let ysSlot = layout.reserve(Float.self, count: capacity)
        let zsSlot = layout.reserve(Float.self, count: capacity)
        let rowsSlot = layout.reserve(Int32.self, count: capacity)
        let rowHitsSlot = layout.reserve(Int32.self, count: height + 1)
        memory = try AlignedBuffer(layout: layout)
        xs = memory.pointer(xsSlot)
        ys = memory.pointer(ysSlot)
        zs = memory.pointer(zsSlot)
        rows = memory.pointer(rowsSlot)
        rowHits = memory.pointer(rowHitsSlot)
    }

    func reset() { plane = nil }

    /// One frame: `depth` raw units times `unit` are millimetres, `rayX[u]`/`rayY[v]` the work
    /// grid's x/z and y/z.
    func update(depth: UnsafePointer<UInt16>, stride: Int, width: Int, height: Int, unit: Float,
                rayX: UnsafePointer<Float>, rayY: UnsafePointer<Float>) {
        sample(depth: depth, stride: stride, width: width, height: height, unit: unit, rayX: rayX, rayY: rayY)
        let needed = max(Self.minimumInliers, count * Self.minimumInlierPercent / 100)
        guard count >= 3 else { plane = nil; return }
        var best: Plane? = nil
        var bestScore = 0
        if let previous = plane, let refined = refine(previous) {
            best = refined
            bestScore = inliers(of: refined)
        }
        let iterations = best == nil ? Self.freshIterations : Self.trackingIterations
        for _ in 0..<iterations {
            guard let candidate = hypothesis() else { continue }
            let score = inliers(of: candidate)
            if score > bestScore {
                bestScore = score
                best = candidate
            }
        }
        guard let found = best, bestScore >= needed, let refined = refine(found), inliers(of: refined) >= needed,
              coversRows(refined) else {
            plane = nil
            return
        }
        plane = refined
    }

    /// Points from the lower 45 % of the view on a grid of about 2500 samples.
    private func sample(depth: UnsafePointer<UInt16>, stride: Int, width: Int, height: Int, unit: Float,
                        rayX: UnsafePointer<Float>, rayY: UnsafePointer<Float>) {
        let top = height * 55 / 100
        let area = width * (height - top)
        var step = 1
        while area / (step * step) > capacity / 2 { step += 1 }
        count = 0
        sampledRows = 0
        var y = top
        while y < height {
            let row = depth + y * stride
            var x = (y / step) % 2 == 0 ? 0 : step / 2
            while x < width && count < capacity {
                let raw = row[x]
                if raw != 0 {
                    let z = Float(raw) * unit
                    xs[count] = rayX[x] * z
                    ys[count] = rayY[y] * z
                    zs[count] = z
                    rows[count] = Int32(sampledRows)
                    count += 1
                }
                x += step
            }
            sampledRows += 1
            y += step
        }
    }

    private func nextIndex() -> Int {
        random ^= random << 13
        random ^= random >> 7
        random ^= random << 17
        return Int(truncatingIfNeeded: random % UInt64(count))
    }

    /// A plane through three random samples, if it could be a floor.
    private func hypothesis() -> Plane? {
        let i = nextIndex()
        let j = nextIndex()
        let k = nextIndex()
        let ax = xs[j] - xs[i], ay = ys[j] - ys[i], az = zs[j] - zs[i]
        let bx = xs[k] - xs[i], by = ys[k] - ys[i], bz = zs[k] - zs[i]
        var nx = ay * bz - az * by
        var ny = az * bx - ax * bz
        var nz = ax * by - ay * bx
        let length = (nx * nx + ny * ny + nz * nz).squareRoot()
        guard length > 1e-3 else { return nil }
        if ny < 0 { nx = -nx; ny = -ny; nz = -nz }
        nx /= length; ny /= length; nz /= length
        let plane = Plane(nx: nx, ny: ny, nz: nz, offset: nx * xs[i] + ny * ys[i] + nz * zs[i])
        return Self.plausible(plane) ? plane : nil
    }

    private static func plausible(_ plane: Plane) -> Bool {
        plane.ny >= 0.83 && plane.nx <= 0.3 && plane.nx >= -0.3 && plane.nz <= 0.55 && plane.nz >= -0.2
            && plane.offset >= 300 && plane.offset <= 3500
    }

    private func inliers(of plane: Plane) -> Int {
        var n = 0
        for i in 0..<count {
            let distance = plane.nx * xs[i] + plane.ny * ys[i] + plane.nz * zs[i] - plane.offset
            if distance <= Self.inlierMM && distance >= -Self.inlierMM { n += 1 }
        }
        return n
    }

    /// A floor seen by a camera fills a stretch of rows, its distance growing row by row; a plane
    /// that only grazes a wall or a body along a band of rows (RANSAC's favourite mistake when
    /// there is no floor) does not. Required: inliers in at least `minimumRowPercent` of the
    /// sampled rows.
    static let minimumRowPercent = 35

    /// And it runs away from the camera: its inliers' distances spread by at least
    /// `minimumDepthSpreadMM` (standard deviation), where the curve of a body or a table top
    /// spreads a few centimetres.
    static let minimumDepthSpreadMM: Float = 150
    /// And nothing is seen through it: a plane slicing a wall and a body has wall below it, a
    /// floor has nothing below it but a little noise (percent of the samples).
    static let maximumBelowPercent = 3

    private func coversRows(_ plane: Plane) -> Bool {
        rowHits.update(repeating: 0, count: sampledRows)
        var n: Float = 0
        var sum: Float = 0
        var squares: Float = 0
        var below = 0
        for i in 0..<count {
            let distance = plane.nx * xs[i] + plane.ny * ys[i] + plane.nz * zs[i] - plane.offset
            if distance > 3 * Self.inlierMM { below += 1 }
            if distance <= Self.inlierMM && distance >= -Self.inlierMM {
                rowHits[Int(rows[i])] += 1
                n += 1
                sum += zs[i]
                squares += zs[i] * zs[i]
            }
        }
        var covered = 0
        for r in 0..<sampledRows where rowHits[r] >= 3 { covered += 1 }
        guard n >= 2 && covered * 100 >= sampledRows * Self.minimumRowPercent else { return false }
        guard below * 100 <= count * Self.maximumBelowPercent else { return false }
        let mean = sum / n
        let variance = squares / n - mean * mean
        return variance >= Self.minimumDepthSpreadMM * Self.minimumDepthSpreadMM
    }

    /// Least squares y = a x + b z + d over the plane's inliers (the floor is never vertical in
    /// the image, so y as a function of x and z is well posed), by the 3x3 normal equations.
    private func refine(_ plane: Plane) -> Plane? {
        var sxx: Double = 0, sxz: Double = 0, sx: Double = 0, szz: Double = 0, sz: Double = 0, n: Double = 0
        var sxy: Double = 0, szy: Double = 0, sy: Double = 0
        for i in 0..<count {
            let distance = plane.nx * xs[i] + plane.ny * ys[i] + plane.nz * zs[i] - plane.offset
            guard distance <= Self.inlierMM && distance >= -Self.inlierMM else { continue }
            let x = Double(xs[i]), y = Double(ys[i]), z = Double(zs[i])
            sxx += x * x; sxz += x * z; sx += x; szz += z * z; sz += z; n += 1
            sxy += x * y; szy += z * y; sy += y
        }
        guard n >= 3 else { return nil }
        // | sxx sxz sx | |a|   |sxy|
        // | sxz szz sz | |b| = |szy|
        // | sx  sz  n  | |d|   |sy |
        let det = sxx * (szz * n - sz * sz) - sxz * (sxz * n - sz * sx) + sx * (sxz * sz - szz * sx)
        guard det > 1e-9 || det < -1e-9 else { return nil }
        let a = (sxy * (szz * n - sz * sz) - sxz * (szy * n - sz * sy) + sx * (szy * sz - szz * sy)) / det
        let b = (sxx * (szy * n - sy * sz) - sxy * (sxz * n - sz * sx) + sx * (sxz * sy - szy * sx)) / det
        let d = (sxx * (szz * sy - sz * szy) - sxz * (sxz * sy - sx * szy) + sxy * (sxz * sz - szz * sx)) / det
        let length = Float((a * a + b * b + 1).squareRoot())
        let refined = Plane(nx: Float(-a) / length, ny: 1 / length, nz: Float(-b) / length, offset: Float(d) / length)
        return Self.plausible(refined) ? refined : nil
    }
}
