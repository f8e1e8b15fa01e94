/// Which nodes to open for colour and depth, and why (one phrase for the start-up report).
public struct CameraSelection: Equatable, Sendable {
    public var colorPath: String
    public var depthPath: String
    public var reason: String

    public init(colorPath: String, depthPath: String, reason: String) {
        self.colorPath = colorPath
        self.depthPath = depthPath
        self.reason = reason
    }
}
