/// `[photos]`: where the shutter button's pictures are written, and how a photo is taken.
public struct PhotoSettings: Equatable, Sendable {
    public var directory: String = "/var/lib/backdrop/photos"
    /// Seconds counted down on screen before the photo; 0 takes it at once.
    public var countdownSeconds: Int = 3
    /// Also keep the photo's colour, alpha and depth as PNG, so it can be re-rendered over
    /// another backdrop later.
    public var keepLayers: Bool = false

    public init() {}
}
