/// A pinhole camera in pixels of its own image (pixel centres at integers): what recordings,
/// the config, the synthetic scene and depth reprojection all mean by fx, fy, cx, cy.
public struct PinholeIntrinsics: Equatable, Sendable {
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
    public func scaled(x: Float, y: Float) -> PinholeIntrinsics {
        PinholeIntrinsics(fx: fx * x, fy: fy * y, cx: (cx + 0.5) * x - 0.5, cy: (cy + 0.5) * y - 0.5)
    }
}
