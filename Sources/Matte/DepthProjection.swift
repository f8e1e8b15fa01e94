/// How depth pixels land in the colour image when the camera does not register depth to colour
/// itself: both cameras as pinholes, and where the colour camera sits relative to the depth camera.
/// Rotation between the two is taken as identity: stereo modules mount both sensors on one bar.
public struct DepthProjection: Equatable, Sendable {
    /// Pinhole intrinsics in pixels of that camera's own resolution (pixel centres at integers).
    public struct Pinhole: Equatable, Sendable {
        public var fx: Float
        public var fy: Float
        public var cx: Float
        public var cy: Float

        public init(fx: Float, fy: Float, cx: Float, cy: Float) {
            self.fx = fx
            self.fy = fy
            self.cx = cx
            self.cy = cy
        }

        /// The same camera sampled at another resolution; pixel centres stay pixel centres.
        public func scaled(x: Float, y: Float) -> Pinhole {
            Pinhole(fx: fx * x, fy: fy * y, cx: (cx + 0.5) * x - 0.5, cy: (cy + 0.5) * y - 0.5)
        }
    }

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
