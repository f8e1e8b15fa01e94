/// What the user asked the box to do. The appliance acts on these; nothing below it interprets presses.
public enum ButtonIntent: UInt8, Equatable, Sendable {
    case nextBackdrop
    case previousBackdrop
    case takePhoto
    /// Show the matte (alpha in grey) instead of the composite, for setting thresholds.
    case toggleMatteView

    public var name: String {
        switch self {
        case .nextBackdrop: return "next backdrop"
        case .previousBackdrop: return "previous backdrop"
        case .takePhoto: return "take photo"
        case .toggleMatteView: return "toggle matte view"
        }
    }

    /// The default meaning of each gesture. A long press acts on release, so `held` only gives
    /// feedback and a press never fires two intents.
    public static func forGesture(_ gesture: ButtonGesture) -> ButtonIntent? {
        switch (gesture.role, gesture.kind) {
        case (_, .held): return nil
        case (.next, .shortPress): return .nextBackdrop
        case (.next, .longPress): return .toggleMatteView
        case (.previous, _): return .previousBackdrop
        case (.shutter, _): return .takePhoto
        }
    }
}
