import Frames

/// What registering depth onto colour needs, for the sizes the streams run at, and where it came
/// from (for the one start-up line and `backdrop cameras`).
public struct CameraCalibration: Equatable, Sendable {
    public var depthSize: FrameSize
    public var colorSize: FrameSize
    public var depth: PinholeIntrinsics
    public var color: PinholeIntrinsics
    /// Depth-camera axes to colour-camera axes.
    public var rotation: CameraRotation
    /// A point P of the depth camera is at rotation·P − translationMM for the colour camera
    /// (with no rotation: the colour camera's optical centre in the depth camera's frame).
    public var translationMM: SIMD3<Float>
    /// Millimetres per raw depth unit, when the camera said.
    public var depthUnitMM: Float?
    public var source: String

    public init(depthSize: FrameSize, colorSize: FrameSize, depth: PinholeIntrinsics, color: PinholeIntrinsics,
                rotation: CameraRotation = .identity, translationMM: SIMD3<Float>, depthUnitMM: Float? = nil,
                source: String) {
        self.depthSize = depthSize
        self.colorSize = colorSize
        self.depth = depth
        self.color = color
        self.rotation = rotation
        self.translationMM = translationMM
        self.depthUnitMM = depthUnitMM
        self.source = source
    }

    /// From a D4xx's two GETINTCAL tables (and its GET_ADV depth units, when read) at the sizes
    /// the streams run at. The table's rotation and translation say where depth is seen from the
    /// colour camera; their inverse is what reprojection needs.
    public init(depthTable: RealSenseDepthTable, colorTable: RealSenseColorTable, depthSize: FrameSize,
                colorSize: FrameSize, depthUnitMM: Float?, source: String) throws(CalibrationError) {
        let toDepth = colorTable.rotation
        let toColour = toDepth.transposed
        self.init(depthSize: depthSize, colorSize: colorSize,
                  depth: try depthTable.intrinsics(for: depthSize), color: try colorTable.intrinsics(for: colorSize),
                  rotation: toColour, translationMM: -toColour.rotate(colorTable.translationMM),
                  depthUnitMM: depthUnitMM, source: source)
    }

    /// A pinhole a camera of `size` could have: finite, focal lengths positive and under 20
    /// image widths, the principal point on the image (with half a pixel's slack).
    static func check(_ pinhole: PinholeIntrinsics, size: FrameSize, table: String) throws(CalibrationError) {
        let width = Float(size.width), height = Float(size.height)
        func refuse(_ what: String, _ value: Float) -> CalibrationError {
            .absurd(table: table, what: "\(what) at \(size.description)", value: CalibrationText.decimal(value))
        }
        guard pinhole.fx.isFinite, pinhole.fx > 0, pinhole.fx < 20 * width else { throw refuse("fx", pinhole.fx) }
        guard pinhole.fy.isFinite, pinhole.fy > 0, pinhole.fy < 20 * height else { throw refuse("fy", pinhole.fy) }
        guard pinhole.cx.isFinite, pinhole.cx >= -0.5, pinhole.cx <= width - 0.5 else { throw refuse("cx", pinhole.cx) }
        guard pinhole.cy.isFinite, pinhole.cy >= -0.5, pinhole.cy <= height - 0.5 else { throw refuse("cy", pinhole.cy) }
    }
}
