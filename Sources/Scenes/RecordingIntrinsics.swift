/// Pinhole intrinsics stored with a recording ([intrinsics] fx fy cx cy), in pixels of the depth
/// image (which, when `registered`, is also the colour image).
public struct RecordingIntrinsics: Equatable, Sendable {
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
}
