import Frames

/// Which nodes `V4L2Source` opens and what it asks them for.
public struct V4L2SourceConfiguration: Equatable, Sendable {
    public var color: NodeChoice
    public var depth: NodeChoice
    public var colorRequest: StreamRequest
    public var depthRequest: StreamRequest
    /// Millimetres per raw depth unit (RealSense D4xx: 1).
    public var depthUnitMM: Float
    /// Where `auto` looks for video nodes.
    public var deviceDirectory: String
    /// Each stream's size was given (not auto): a RealSense's own defaults do not replace it.
    public var depthSizeGiven = false
    public var colorSizeGiven = false
    /// `depthUnitMM` was typed: it wins over the camera's.
    public var depthUnitGiven = false

    public init(color: NodeChoice = .auto, depth: NodeChoice = .auto,
                size: FrameSize = FrameSize(width: 640, height: 480), colorFormat: CaptureFormat? = nil,
                framesPerSecond: Int = 30, depthUnitMM: Float = 1.0, deviceDirectory: String = "/dev") {
        self.color = color
        self.depth = depth
        self.colorRequest = StreamRequest(role: .color, size: size, format: colorFormat, framesPerSecond: framesPerSecond)
        self.depthRequest = StreamRequest(role: .depth, size: size, format: nil, framesPerSecond: framesPerSecond)
        self.depthUnitMM = depthUnitMM
        self.deviceDirectory = deviceDirectory
    }
}
