/// What the message layer should say. The booth names the message; the loop turns it into text
/// (`text(backdropName:lookName:)`) and publishes it to the compose threads' message slot.
public enum BoothMessage: Equatable, Sendable {
    /// The name of the backdrop now shown (the booth does not know names; the loop fills it in).
    case backdropName
    /// The name of the look now shown (filled in by the loop, like the backdrop's).
    case lookName
    /// Seconds left before the photo, drawn large.
    case countdown(Int)
    case photoSaved
    case photoFailed(String)
    case cameraDisconnected
    /// Any other short text: the USB import's messages, hints.
    case text(String)

    /// The countdown digits are drawn large; everything else as a caption.
    public var isLarge: Bool {
        if case .countdown = self { return true }
        return false
    }

    public func text(backdropName: String, lookName: String = "") -> String {
        switch self {
        case .backdropName: return backdropName
        case .lookName: return "LOOK: " + lookName
        case .countdown(let seconds): return "\(seconds)"
        case .photoSaved: return "PHOTO SAVED"
        case .photoFailed(let reason): return "PHOTO NOT SAVED: " + reason
        case .cameraDisconnected: return "CAMERA DISCONNECTED"
        case .text(let text): return text
        }
    }
}
