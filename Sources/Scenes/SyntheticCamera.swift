/// A pinhole camera of the synthetic scene, in pixels of its own image (pixel centres at
/// integers). Y points down, Z away from the camera, millimetres.
public struct SyntheticCamera: Equatable, Sendable {
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

    /// A 69 degree horizontal field of view with square pixels, like a RealSense colour stream.
    public static func typical(width: Int, height: Int) -> SyntheticCamera {
        let focal = Float(width) * 0.728
        return SyntheticCamera(fx: focal, fy: focal, cx: Float(width - 1) / 2, cy: Float(height - 1) / 2)
    }
}
