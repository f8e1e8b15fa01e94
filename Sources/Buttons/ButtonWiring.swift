import Controls

/// How a board's buttons are wired: the line of each role, polarity and pull. One home for these
/// facts: board/<board>/buttons.conf, read by ButtonBoardFile.
public struct ButtonWiring: Equatable, Sendable {
    /// Indexed by ButtonRole.rawValue; nil where the board has no such button.
    public var lines: [ButtonLineAddress?]
    public var activeLow: Bool
    public var bias: ButtonBias

    public init(activeLow: Bool = true, bias: ButtonBias = .pullUp) {
        lines = [ButtonLineAddress?](repeating: nil, count: ButtonRole.allCases.count)
        self.activeLow = activeLow
        self.bias = bias
    }

    public func line(_ role: ButtonRole) -> ButtonLineAddress? { lines[Int(role.rawValue)] }
    public mutating func setLine(_ role: ButtonRole, _ address: ButtonLineAddress?) {
        lines[Int(role.rawValue)] = address
    }
}
