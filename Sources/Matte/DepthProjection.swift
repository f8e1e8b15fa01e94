import Frames

/// How depth pixels land in the colour image when the camera does not register depth to colour
/// itself: both cameras as pinholes, and where the colour camera sits relative to the depth camera.
/// Rotation between the two is taken as identity: stereo modules mount both sensors on one bar.
public struct DepthProjection: Equatable, Sendable {
    public typealias Pinhole = PinholeIntrinsics

    public var depth: Pinhole
    public var colour: Pinhole
    /// The colour camera's optical centre in the depth camera's frame, millimetres (the meaning of
    /// Settings' DepthToColorOffset): a point P seen by the depth camera is at P - translation
    /// for the colour camera.
    public var translationMM: SIMD3<Float>

    public init(depth: Pinhole, colour: Pinhole, translationMM: SIMD3<Float> = SIMD3<Float>(0, 0, 0)) {
        self.depth = depth
        self.colour = colour
        self.translationMM = translationMM
    }
}
