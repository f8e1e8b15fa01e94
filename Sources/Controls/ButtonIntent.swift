/// What the user asked the box to do. The appliance acts on these; nothing below it interprets presses.
public enum ButtonIntent: UInt8, Equatable, Sendable {
    case nextBackdrop
    case previousBackdrop
    case takePhoto
    /// Show the matte (alpha in grey) instead of the composite, for setting thresholds.
    case toggleMatteView
    /// Show the camera's picture as it is, unmatted, over the whole screen, for aiming the camera.
    case toggleCameraView
    /// Go back to the previous generation of config and backdrops (`backdrop rollback`): next and
    /// previous held together for 5 s, which no use of either button alone can produce.
    case rollback
    /// The next look of `[looks] cycle`: the shutter held past the long-press threshold (a short
    /// press takes the photo), which no other gesture gives.
    case nextLook

    public var name: String {
        switch self {
        case .nextBackdrop: return "next backdrop"
        case .previousBackdrop: return "previous backdrop"
        case .takePhoto: return "take photo"
        case .toggleMatteView: return "toggle matte view"
        case .toggleCameraView: return "toggle camera view"
        case .rollback: return "roll back to the previous set"
        case .nextLook: return "next look"
        }
    }

    /// The default meaning of each gesture: next short, the next backdrop, long, the matte view;
    /// previous short, the previous backdrop, long, the camera view; the shutter short, a photo,
    /// long, the next look. A long press acts on release, so `held` only gives feedback and a press never fires
    /// two intents. Next and previous held together give `bothHeld` (rollback) and no press of
    /// either: `ButtonClassifier` swallows both releases, so no view toggles then.
    public static func forGesture(_ gesture: ButtonGesture) -> ButtonIntent? {
        switch (gesture.role, gesture.kind) {
        case (_, .held): return nil
        case (_, .bothHeld): return .rollback
        case (.next, .shortPress): return .nextBackdrop
        case (.next, .longPress): return .toggleMatteView
        case (.previous, .shortPress): return .previousBackdrop
        case (.previous, .longPress): return .toggleCameraView
        case (.shutter, .longPress): return .nextLook
        case (.shutter, _): return .takePhoto
        }
    }
}
