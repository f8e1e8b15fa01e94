import CGpioShim

/// The line's pull resistor as the request asks for it.
public enum ButtonBias: UInt8, Sendable, CaseIterable {
    case asIs
    case disabled
    case pullUp
    case pullDown

    public var name: String {
        switch self {
        case .asIs: return "as-is"
        case .disabled: return "disabled"
        case .pullUp: return "pull-up"
        case .pullDown: return "pull-down"
        }
    }

    public static func named(_ name: String) -> ButtonBias? {
        for bias in allCases where bias.name == name { return bias }
        return nil
    }

    var shimValue: Int32 {
        switch self {
        case .asIs: return Int32(BK_GPIO_BIAS_AS_IS)
        case .disabled: return Int32(BK_GPIO_BIAS_DISABLED)
        case .pullUp: return Int32(BK_GPIO_BIAS_PULL_UP)
        case .pullDown: return Int32(BK_GPIO_BIAS_PULL_DOWN)
        }
    }
}
