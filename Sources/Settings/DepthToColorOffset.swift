/// Position of the colour camera's optical centre in the depth camera's frame, millimetres.
/// Rotation is not configurable: stereo depth modules mount both sensors on one rigid bar.
public struct DepthToColorOffset: Equatable, Sendable {
    public var xMM: Double
    public var yMM: Double
    public var zMM: Double

    public init(xMM: Double = 0, yMM: Double = 0, zMM: Double = 0) {
        self.xMM = xMM
        self.yMM = yMM
        self.zMM = zMM
    }
}
