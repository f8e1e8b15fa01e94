import Frames

/// The synthetic people as both cameras see them: a pose's shapes (SyntheticShape), each one's
/// pixel box per camera, and the two questions the scenes ask, "how near is the nearest shape
/// along this depth row" and "which shape does this colour pixel hit". SyntheticScene and
/// GroupScene differ only in their room and their people; this is the rendering they share.
///
/// Sized at init (`capacity` shapes); posing and rasterising allocate nothing. Not thread-safe.
final class ShapeRaster {
    let capacity: Int
    let colourCamera: PinholeIntrinsics
    let depthCamera: PinholeIntrinsics
    /// The colour camera's optical centre in the depth camera's frame, millimetres.
    let colourOffsetMM: SIMD3<Float>
    private(set) var count = 0
    private let shapes: UnsafeMutablePointer<SyntheticShape>
    /// Per shape, per camera: first/last pixel column and row the shape can touch.
    private let colourBoxes: UnsafeMutablePointer<SIMD4<Int32>>
    private let depthBoxes: UnsafeMutablePointer<SIMD4<Int32>>

    init(capacity: Int, colourCamera: PinholeIntrinsics, depthCamera: PinholeIntrinsics, colourOffsetMM: SIMD3<Float>) {
        self.capacity = capacity
        self.colourCamera = colourCamera
        self.depthCamera = depthCamera
        self.colourOffsetMM = colourOffsetMM
        shapes = .allocate(capacity: capacity)
        shapes.initialize(repeating: SyntheticShape(), count: capacity)
        colourBoxes = .allocate(capacity: capacity)
        colourBoxes.initialize(repeating: SIMD4<Int32>(0, 0, 0, 0), count: capacity)
        depthBoxes = .allocate(capacity: capacity)
        depthBoxes.initialize(repeating: SIMD4<Int32>(0, 0, 0, 0), count: capacity)
    }

    deinit {
        shapes.deallocate()
        colourBoxes.deallocate()
        depthBoxes.deallocate()
    }

    /// Starts a new pose.
    func removeAll() { count = 0 }

    func add(_ shape: SyntheticShape) {
        precondition(count < capacity, "ShapeRaster: more shapes than its capacity")
        shapes[count] = shape
        colourBoxes[count] = Self.box(of: shape, camera: colourCamera, offset: SIMD3<Float>(0, 0, 0))
        depthBoxes[count] = Self.box(of: shape, camera: depthCamera, offset: colourOffsetMM)
        count += 1
    }

    func shape(_ k: Int) -> SyntheticShape { shapes[k] }

    /// Pixel box of a shape seen by a camera whose frame has the colour camera at `offset`.
    private static func box(of shape: SyntheticShape, camera: PinholeIntrinsics, offset: SIMD3<Float>) -> SIMD4<Int32> {
        let (ex, ey) = shape.halfExtent
        let z = shape.z + offset.z
        let u0 = camera.fx * (shape.centreX - ex + offset.x) / z + camera.cx
        let u1 = camera.fx * (shape.centreX + ex + offset.x) / z + camera.cx
        let v0 = camera.fy * (shape.centreY - ey + offset.y) / z + camera.cy
        let v1 = camera.fy * (shape.centreY + ey + offset.y) / z + camera.cy
        func clamp(_ value: Float) -> Int32 { Int32(SyntheticScene.floor(max(-2, min(100_000, value)))) }
        return SIMD4<Int32>(clamp(u0) - 1, clamp(u1) + 1, clamp(v0) - 1, clamp(v1) + 1)
    }

    /// Depth row `v`: `clean` holds the room's depth-camera Z (`width` samples); every shape
    /// nearer than it along the row replaces it.
    func depthRow(_ v: Int, into clean: UnsafeMutablePointer<Float>, width: Int) {
        let camera = depthCamera
        let offset = colourOffsetMM
        let inverseFx = 1 / camera.fx
        let ry = (Float(v) - camera.cy) / camera.fy
        for k in 0..<count {
            let box = depthBoxes[k]
            if Int(box.z) > v || Int(box.w) < v { continue }
            let shape = shapes[k]
            let zd = shape.z + offset.z
            let y = ry * zd - offset.y
            let first = max(0, Int(box.x))
            let last = min(width - 1, Int(box.y))
            if first > last { continue }
            for u in first...last {
                let x = (Float(u) - camera.cx) * inverseFx * zd - offset.x
                let r2 = shape.radiusSquared(x: x, y: y)
                if r2 < 1 {
                    let z = zd + shape.bulge * r2
                    if z < clean[u] { clean[u] = z }
                }
            }
        }
    }

    /// The colour columns some shape can reach on row `y`, clipped to `width`; first > last when
    /// none does.
    func colourColumns(row y: Int, width: Int) -> (first: Int, last: Int) {
        var first = width
        var last = -1
        for k in 0..<count {
            let box = colourBoxes[k]
            if Int(box.z) > y || Int(box.w) < y { continue }
            first = min(first, max(0, Int(box.x)))
            last = max(last, min(width - 1, Int(box.y)))
        }
        return (first, last)
    }

    /// The shape the colour pixel (x, y) sees, nearer than `limit` millimetres (the room behind),
    /// with the normalised squared radius it is hit at (for shading); index -1 when none.
    /// `rx`, `ry` are the pixel's ray (x/z, y/z).
    @inline(__always)
    func hit(x: Int, y: Int, rx: Float, ry: Float, nearerThan limit: Float) -> (index: Int, radius: Float) {
        var nearest = limit
        var hit = -1
        var hitRadius: Float = 0
        for k in 0..<count {
            let box = colourBoxes[k]
            if Int(box.z) > y || Int(box.w) < y || Int(box.x) > x || Int(box.y) < x { continue }
            let shape = shapes[k]
            let r2 = shape.radiusSquared(x: rx * shape.z, y: ry * shape.z)
            if r2 < 1 && shape.z + shape.bulge * r2 < nearest {
                nearest = shape.z + shape.bulge * r2
                hit = k
                hitRadius = r2
            }
        }
        return (hit, hitRadius)
    }
}
