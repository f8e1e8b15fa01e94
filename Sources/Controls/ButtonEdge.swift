/// One level change of a button line as the kernel reported it, already translated to "pressed"
/// (active) or "released" so active-low wiring is decided once, at the line request.
public struct ButtonEdge: Equatable, Sendable {
    public var role: ButtonRole
    public var pressed: Bool
    /// CLOCK_MONOTONIC nanoseconds from the kernel's edge event, not the time it was read.
    public var nanoseconds: UInt64

    public init(role: ButtonRole, pressed: Bool, nanoseconds: UInt64) {
        self.role = role
        self.pressed = pressed
        self.nanoseconds = nanoseconds
    }
}
