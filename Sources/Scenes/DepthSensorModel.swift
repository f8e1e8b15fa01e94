import Frames

/// What a structured-light or stereo depth sensor does to clean depth, one row at a time: the
/// shadow strip beside each depth edge (the emitter, `shadowBaselineMM` to the side of the imager,
/// cannot light what the nearer surface hides), flying pixels on the far side of edges, noise
/// growing with the square of distance, quantisation uniform in disparity (so coarser with
/// distance: 1/8 pixel steps at `quantiserBaselineMM`), random single dropouts and a few round
/// dropout blobs per frame. The same model as SyntheticScene's sensor, with a Kinect-like
/// baseline. Deterministic in (seed, frame, row). Allocates nothing.
struct DepthSensorModel {
    let seed: UInt64
    let shadowFocal: Float
    let quantiserFocal: Float
    static let shadowBaselineMM: Float = 60
    static let quantiserBaselineMM: Float = 75
    static let blobCount = 3
    private var frame = 0
    private var blobs: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>) = (.zero, .zero, .zero)

    init(seed: UInt64, focal: Float) {
        self.seed = seed
        shadowFocal = focal * Self.shadowBaselineMM
        quantiserFocal = focal * Self.quantiserBaselineMM
    }

    mutating func startFrame(_ frame: Int, size: FrameSize) {
        self.frame = frame
        var random = SyntheticRandom(seed: seed, frame: frame, stream: -1)
        let scale = Float(size.width) / 320
        func blob() -> SIMD3<Float> {
            SIMD3<Float>(random.unit() * Float(size.width), random.unit() * Float(size.height),
                         (1.5 + 2 * random.unit()) * scale)
        }
        blobs = (blob(), blob(), blob())
    }

    /// Turns `clean` (depth-camera Z, millimetres, `width` samples) into the sensor's reading.
    func measure(row v: Int, clean: UnsafeMutablePointer<Float>, width: Int, into row: UnsafeMutablePointer<UInt16>) {
        var random = SyntheticRandom(seed: seed, frame: frame, stream: v)
        let fv = Float(v)
        var shadowReach: Float = -1_000_000
        for u in 0..<width {
            let here = clean[u]
            let reach = shadowFocal / here + Float(u)
            let shadowed = shadowReach > reach + 0.5
            shadowReach = max(shadowReach, reach)
            var z = here
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
            let here2 = SIMD3<Float>(Float(u), fv, 0)
            if Self.inside(here2, blobs.0) || Self.inside(here2, blobs.1) || Self.inside(here2, blobs.2) { dropped = true }
            row[u] = dropped ? 0 : UInt16(max(1, min(65535, z + 0.5)))
        }
    }

    @inline(__always)
    private static func inside(_ point: SIMD3<Float>, _ blob: SIMD3<Float>) -> Bool {
        let dx = point.x - blob.x
        let dy = point.y - blob.y
        return dx * dx + dy * dy <= blob.z * blob.z
    }
}
