/// Which way a backdrop switch goes through the ready set (it wraps at both ends).
public enum BackdropStep: UInt8, Equatable, Sendable {
    case next
    case previous
}
