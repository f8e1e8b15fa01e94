import Frames

/// `[background]`: where backdrops live and how they meet the output's aspect ratio.
public struct BackgroundSettings: Equatable, Sendable {
    public var fit: FitMode = .fill
    /// Directory of PNG/JPEG backdrops, cycled in name order.
    public var directory: String = "/var/lib/backdrop/backgrounds"

    public init() {}
}
