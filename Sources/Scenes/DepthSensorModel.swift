import Frames

/// What a structured-light or stereo depth sensor does to clean depth, one row at a time: the
/// shadow strip beside each depth edge (the emitter, `shadowBaselineMM` to the side of the imager,
/// cannot light what the nearer surface hides), flying pixels on the far side of edges, noise
/// growing with the square of distance, quantisation uniform in disparity (so coarser with
/// distance: 1/8 pixel steps at `quantiserBaselineMM`), random single dropouts and a few round
/// dropout blobs per frame. The one sensor of every synthetic scene; each scene picks its
/// baselines (SyntheticScene a short-baseline module, GroupScene a Kinect-like one).
/// Deterministic in (seed, frame, row). Allocates nothing.
struct DepthSensorModel {
    let seed: UInt64
    let shadowFocal: Float
    let quantiserFocal: Float
    /// Dropout blobs per frame, at most `maximumBlobs`.
    let blobCount: Int
    static let maximumBlobs = 4
    private var frame = 0
    private var blobs: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>, SIMD3<Float>) = (.zero, .zero, .zero, .zero)

    init(seed: UInt64, focal: Float, shadowBaselineMM: Float = 60, quantiserBaselineMM: Float = 75, blobCount: Int = 3) {
        precondition(blobCount >= 0 && blobCount <= Self.maximumBlobs)
        self.seed = seed
        shadowFocal = focal * shadowBaselineMM
        quantiserFocal = focal * quantiserBaselineMM
        self.blobCount = blobCount
    }

    mutating func startFrame(_ frame: Int, size: FrameSize) {
        self.frame = frame
        var random = SyntheticRandom(seed: seed, frame: frame, stream: -1)
        let scale = Float(size.width) / 320
        // An unused blob lies far outside the frame with radius 0: no pixel is inside it.
        func blob(_ index: Int) -> SIMD3<Float> {
            guard index < blobCount else { return SIMD3<Float>(-1e9, -1e9, 0) }
            return SIMD3<Float>(random.unit() * Float(size.width), random.unit() * Float(size.height),
                                (1.5 + 2 * random.unit()) * scale)
        }
        blobs = (blob(0), blob(1), blob(2), blob(3))
    }

    /// Turns `clean` (depth-camera Z, millimetres, `width` samples) into the sensor's reading.
    func measure(row v: Int, clean: UnsafeMutablePointer<Float>, width: Int, into row: UnsafeMutablePointer<UInt16>) {
        var random = SyntheticRandom(seed: seed, frame: frame, stream: v)
        let fv = Float(v)
        // Only rows a blob crosses test every pixel against the blobs.
        let blobRows = Self.crosses(fv, blobs.0) || Self.crosses(fv, blobs.1) || Self.crosses(fv, blobs.2)
            || Self.crosses(fv, blobs.3)
        var shadowReach: Float = -1_000_000
        for u in 0..<width {
            let here = clean[u]
            // Shadow: the emitter cannot light what the nearer surface hides from it; the hole
            // sits on the far side of each depth edge.
            let reach = shadowFocal / here + Float(u)
            let shadowed = shadowReach > reach + 0.5
            shadowReach = max(shadowReach, reach)
            var z = here
            // Flying pixels: the farther pixel of an edge mixes both surfaces.
            let left = u > 0 ? clean[u - 1] : here
            let right = u + 1 < width ? clean[u + 1] : here
            let nearer = min(left, right)
            if here - nearer > 150 && random.unit() < 0.35 {
                z = nearer + (here - nearer) * random.unit()
            }
            let (gaussian, roll) = random.gaussianAndUniform()
            z += gaussian * (1.5 + z * z * 1.2e-6)
            let disparity = Float(Int(quantiserFocal / max(z, 1) * 8 + 0.5)) / 8
            z = quantiserFocal / max(disparity, 0.125)
            var dropped = shadowed || roll < 0.002
            if blobRows {
                let here2 = SIMD3<Float>(Float(u), fv, 0)
                if Self.inside(here2, blobs.0) || Self.inside(here2, blobs.1) || Self.inside(here2, blobs.2)
                    || Self.inside(here2, blobs.3) { dropped = true }
            }
            row[u] = dropped ? 0 : UInt16(max(1, min(65535, z + 0.5)))
        }
    }

    @inline(__always)
    private static func crosses(_ v: Float, _ blob: SIMD3<Float>) -> Bool {
        abs(blob.y - v) <= blob.z
    }

    @inline(__always)
    private static func inside(_ point: SIMD3<Float>, _ blob: SIMD3<Float>) -> Bool {
        let dx = point.x - blob.x
        let dy = point.y - blob.y
        return dx * dx + dy * dy <= blob.z * blob.z
    }
}
