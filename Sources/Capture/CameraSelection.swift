/// Which nodes to open for colour and depth, and why (one phrase for the start-up report).
public struct CameraSelection: Equatable, Sendable {
    public var colorPath: String
    public var depthPath: String
    public var reason: String
    /// The depth node's camera when it is a RealSense (by USB id), for its stream sizes, depth
    /// unit and calibration.
    public var realSense: RealSenseModel?

    public init(colorPath: String, depthPath: String, reason: String, realSense: RealSenseModel? = nil) {
        self.colorPath = colorPath
        self.depthPath = depthPath
        self.reason = reason
        self.realSense = realSense
    }
}
