import Frames

/// GETINTCAL table 32: the RGB sensor. Natural alignment after the 16-byte header: float 3x3
/// intrinsic normalised to [-1, 1] at 16, distortion[5] at 52, a Rodrigues rotation and a
/// translation at 72 and 84, a 3x4 projection at 96, u16 calibration width and height at 144,
/// the rectified intrinsic at 148, the rectified rotation at 184 and translation (mm) at 220;
/// 256 bytes in all. The 3x3s are stored by columns.
public struct RealSenseColorTable: Equatable, Sendable {
    public static let tableBytes = 256
    public var version: UInt16
    /// The normalised intrinsic, as stored (by columns).
    public var normalised: [Float]
    /// Brown-Conrady coefficients; Backdrop's reprojection is a pinhole and does not use them.
    public var distortion: [Float]
    public var calibrationSize: FrameSize
    /// As stored: the rotation that takes colour-camera axes to depth-camera axes, by columns.
    public var rotationColumns: [Float]
    /// As stored, millimetres: the depth camera's origin relative to the colour camera, negated
    /// (librealsense reads it × -0.001 as the colour-to-depth translation in metres).
    public var translationMM: SIMD3<Float>

    public init(payload: ArraySlice<UInt8>) throws(CalibrationError) {
        let name = HardwareMonitor.Table.color.name
        let header = try CalibrationTableHeader.read(payload, table: name,
                                                     minimumBody: Self.tableBytes - CalibrationTableHeader.size)
        let bytes = CalibrationBytes(payload)
        version = header.version
        normalised = bytes.floats(16, count: 9)
        distortion = bytes.floats(52, count: 5)
        calibrationSize = FrameSize(width: Int(bytes.u16(144)), height: Int(bytes.u16(146)))
        rotationColumns = bytes.floats(184, count: 9)
        let t = bytes.floats(220, count: 3)
        translationMM = SIMD3(t[0], t[1], t[2])
        let m = normalised
        for (index, what) in [(0, "normalised fx"), (4, "normalised fy")] where !(m[index].isFinite && m[index] > 0.05 && m[index] < 20) {
            throw .absurd(table: name, what: what, value: CalibrationText.decimal(m[index], places: 4))
        }
        for (index, what) in [(2, "normalised ppx"), (5, "normalised ppy")] where !(m[index].isFinite && abs(m[index]) < 1) {
            throw .absurd(table: name, what: what, value: CalibrationText.decimal(m[index], places: 4))
        }
        let error = rotation.orthonormalityError
        guard error < 0.01 else {
            throw .absurd(table: name, what: "the rectified rotation (R·Rᵀ off identity by \(CalibrationText.decimal(error, places: 4)))",
                          value: CalibrationText.list(rotationColumns))
        }
        guard translationMM.x.isFinite, translationMM.y.isFinite, translationMM.z.isFinite,
              (translationMM * translationMM).sum() < 300 * 300 else {
            throw .absurd(table: name, what: "the translation to the depth camera",
                          value: CalibrationText.vector(translationMM) + " mm")
        }
    }

    /// The stored rotation (colour axes to depth axes) as a `CameraRotation`.
    public var rotation: CameraRotation {
        let c = rotationColumns
        return CameraRotation(row0: SIMD3(c[0], c[3], c[6]), row1: SIMD3(c[1], c[4], c[7]), row2: SIMD3(c[2], c[5], c[8]))
    }

    /// The colour image's pinhole at `size`. The normalised matrix maps [-1, 1] across the
    /// calibration image; at another aspect ratio the horizontal terms are rescaled so the
    /// vertical field of view is kept (the sensor is cropped sideways). No calibration size
    /// stored means 16:9.
    public func intrinsics(for size: FrameSize) throws(CalibrationError) -> PinholeIntrinsics {
        let m = normalised
        let calibrationAspect: Float = calibrationSize.width > 0 && calibrationSize.height > 0
            ? Float(calibrationSize.width) / Float(calibrationSize.height) : 16 / 9
        let aspect = calibrationAspect * Float(size.height) / Float(size.width)
        let width = Float(size.width), height = Float(size.height)
        let result = PinholeIntrinsics(fx: m[0] * aspect * width / 2, fy: m[4] * height / 2,
                                       cx: (1 + m[2] * aspect) * width / 2, cy: (1 + m[5]) * height / 2)
        try CameraCalibration.check(result, size: size, table: HardwareMonitor.Table.color.name)
        return result
    }
}
