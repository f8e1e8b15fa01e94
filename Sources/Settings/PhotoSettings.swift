/// `[photos]`: where the shutter button's pictures are written.
public struct PhotoSettings: Equatable, Sendable {
    public var directory: String = "/var/lib/backdrop/photos"

    public init() {}
}
