/// A device the booth cannot work without; losing one changes what the screen says and what
/// the buttons do until it is back.
public enum BoothDevice: UInt8, Equatable, Sendable {
    case camera
    case display

    public var name: String {
        switch self {
        case .camera: return "camera"
        case .display: return "display"
        }
    }
}
