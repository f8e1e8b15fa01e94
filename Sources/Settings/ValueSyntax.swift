/// Reads the scalar spellings a config value may use. Written out rather than borrowed from the
/// standard library: `Double(String)` needs strtod, which Embedded Swift does not link, and would
/// accept "nan", "inf" and hex floats that have no place in a config file.
enum ValueSyntax {
    /// A decimal integer, optionally signed. Rejects "12abc", "1.5" and "".
    static func integer(_ text: String) -> Int? { Int(text) }

    /// "[+-]digits[.digits]" with at most 15 significant digits, so the result is exact to a
    /// correctly rounded Double (mantissa below 2^53, one division by an exact power of ten).
    static func decimal(_ text: String) -> Double? {
        var negative = false
        var mantissa: UInt64 = 0
        var significantDigits = 0
        var anyDigit = false
        var fractionDigits = 0
        var seenPoint = false
        var first = true
        for byte in text.utf8 {
            defer { first = false }
            switch byte {
            case UInt8(ascii: "-") where first: negative = true
            case UInt8(ascii: "+") where first: break
            case UInt8(ascii: "."):
                if seenPoint { return nil }
                seenPoint = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                anyDigit = true
                let digit = UInt64(byte - UInt8(ascii: "0"))
                if mantissa != 0 || digit != 0 { significantDigits += 1 }
                if significantDigits > 15 { return nil }
                mantissa = mantissa * 10 + digit
                if seenPoint { fractionDigits += 1 }
            default:
                return nil
            }
        }
        guard anyDigit, fractionDigits <= 22 else { return nil }
        var scale = 1.0
        for _ in 0..<fractionDigits { scale *= 10 }
        let magnitude = Double(mantissa) / scale
        return negative ? -magnitude : magnitude
    }

    /// true/false, yes/no, on/off, 1/0, in any letter case.
    static func boolean(_ text: String) -> Bool? {
        switch asciiLowercased(text) {
        case "true", "yes", "on", "1": return true
        case "false", "no", "off", "0": return false
        default: return nil
        }
    }

    /// The shortest spelling of a limit in a message: 100 rather than 100.0.
    static func format(_ value: Double) -> String {
        let text = "\(value)"
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    static func isSingleWord(_ text: String) -> Bool {
        guard !text.isEmpty else { return false }
        for byte in text.utf8 where byte <= 0x20 || byte == 0x7F { return false }
        return true
    }

    private static func asciiLowercased(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            bytes.append(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
