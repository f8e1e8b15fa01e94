/// Decimal numbers as .cube files and looks files write them: "[+-]digits[.digits][e[+-]digits]".
/// Written out because Embedded Swift has no strtod, and because "nan", "inf", hex floats and
/// 400-digit mantissas have no place in a table a stick brings: anything else is refused.
enum NumberSyntax {
    /// The number, or nil when `bytes` is not one. Digits past the 18th significant one are
    /// read as zeros (a Float keeps 7); exponents beyond +-99 are refused.
    static func decimal(_ bytes: ArraySlice<UInt8>) -> Double? {
        var index = bytes.startIndex
        let end = bytes.endIndex
        guard index < end else { return nil }
        var negative = false
        if bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        var mantissa: UInt64 = 0
        var significant = 0
        var exponent = 0
        var digits = 0
        var seenPoint = false
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") {
                if seenPoint { return nil }
                seenPoint = true
            } else if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                digits += 1
                let digit = UInt64(byte - UInt8(ascii: "0"))
                if mantissa == 0 && digit == 0 {
                    if seenPoint { exponent -= 1 }
                } else if significant < 18 {
                    mantissa = mantissa * 10 + digit
                    significant += 1
                    if seenPoint { exponent -= 1 }
                } else if !seenPoint {
                    exponent += 1
                }
            } else {
                break
            }
            index += 1
        }
        guard digits > 0 else { return nil }
        if index < end {
            guard bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") else { return nil }
            index += 1
            var negativeExponent = false
            if index < end && (bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+")) {
                negativeExponent = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            var written = 0, count = 0
            while index < end, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                written = written * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                count += 1
                guard count <= 2 else { return nil }
                index += 1
            }
            guard count > 0, index == end else { return nil }
            exponent += negativeExponent ? -written : written
        }
        var value = Double(mantissa)
        if exponent > 0 {
            for _ in 0..<exponent { value *= 10 }
        } else if exponent < 0 {
            // One division by an exact power of ten while it stays exact (10^22), so the common
            // short decimals round correctly.
            var remaining = -exponent
            while remaining > 0 {
                let chunk = min(remaining, 22)
                var scale = 1.0
                for _ in 0..<chunk { scale *= 10 }
                value /= scale
                remaining -= chunk
            }
        }
        return negative ? -value : value
    }

    /// A non-negative decimal integer of at most `maxDigits` digits.
    static func integer(_ bytes: ArraySlice<UInt8>, maxDigits: Int = 9) -> Int? {
        guard !bytes.isEmpty, bytes.count <= maxDigits else { return nil }
        var value = 0
        for byte in bytes {
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}
