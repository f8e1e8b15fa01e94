/// A rotation between two cameras' frames as a 3x3 matrix by rows: `rotate(p)` is the point p of
/// the first camera's frame in the second camera's axes. Stereo modules mount their sensors on one
/// bar, so it is close to identity, but a factory calibration still measures a few milliradians,
/// which at 3 m is a centimetre.
public struct CameraRotation: Equatable, Sendable {
    public var row0: SIMD3<Float>
    public var row1: SIMD3<Float>
    public var row2: SIMD3<Float>

    public init(row0: SIMD3<Float>, row1: SIMD3<Float>, row2: SIMD3<Float>) {
        self.row0 = row0
        self.row1 = row1
        self.row2 = row2
    }

    public static let identity = CameraRotation(row0: SIMD3(1, 0, 0), row1: SIMD3(0, 1, 0), row2: SIMD3(0, 0, 1))

    /// Column `index` (0...2): where the first frame's axis lands.
    public func column(_ index: Int) -> SIMD3<Float> { SIMD3(row0[index], row1[index], row2[index]) }

    public var transposed: CameraRotation { CameraRotation(row0: column(0), row1: column(1), row2: column(2)) }

    public func rotate(_ point: SIMD3<Float>) -> SIMD3<Float> {
        SIMD3((row0 * point).sum(), (row1 * point).sum(), (row2 * point).sum())
    }

    /// Largest deviation of R·Rᵀ from identity: 0 for a true rotation, so a table whose matrix is
    /// not one (scaled, sheared, garbage) can be refused.
    public var orthonormalityError: Float {
        let rows = [row0, row1, row2]
        var worst: Float = 0
        for i in 0..<3 {
            for j in 0..<3 {
                let dot = (rows[i] * rows[j]).sum()
                let deviation = abs(dot - (i == j ? 1 : 0))
                worst = deviation > worst || deviation.isNaN ? (deviation.isNaN ? .infinity : deviation) : worst
            }
        }
        return worst
    }
}
