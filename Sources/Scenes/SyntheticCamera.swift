import Frames

/// The synthetic scene's cameras: pinholes with Y down, Z away from the camera, millimetres.
public enum SyntheticCamera {
    /// A 69 degree horizontal field of view with square pixels, like a RealSense colour stream.
    public static func typical(width: Int, height: Int) -> PinholeIntrinsics {
        let focal = Float(width) * 0.728
        return PinholeIntrinsics(fx: focal, fy: focal, cx: Float(width - 1) / 2, cy: Float(height - 1) / 2)
    }
}
