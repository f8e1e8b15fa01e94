import Frames

/// How depth pixels land in the colour image when the camera does not register depth to colour
/// itself: both cameras as pinholes, and the rigid motion between them. A point P seen by the
/// depth camera is at rotation·P − translationMM for the colour camera.
public struct DepthProjection: Equatable, Sendable {
    public typealias Pinhole = PinholeIntrinsics

    public var depth: Pinhole
    public var colour: Pinhole
    /// Depth-camera axes to colour-camera axes: identity when the config gives only an offset
    /// (stereo modules mount both sensors on one bar); a D4xx's factory calibration measures it.
    public var rotation: CameraRotation
    /// Millimetres. With no rotation, the colour camera's optical centre in the depth camera's
    /// frame (the meaning of Settings' DepthToColorOffset).
    public var translationMM: SIMD3<Float>

    public init(depth: Pinhole, colour: Pinhole, rotation: CameraRotation = .identity,
                translationMM: SIMD3<Float> = SIMD3<Float>(0, 0, 0)) {
        self.depth = depth
        self.colour = colour
        self.rotation = rotation
        self.translationMM = translationMM
    }
}
