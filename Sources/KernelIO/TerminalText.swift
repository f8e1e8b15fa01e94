/// Text from files (a config's values, a file name, a binary file read as a config) reaches the
/// terminal and the journal inside messages. Control characters in it could move the cursor,
/// clear the screen or forge a log line, so they are shown as escapes (`\x1b`, `\u{85}`) instead.
/// Hand-written because it is a few lines over `unicodeScalars`, and no library here does it.
public enum TerminalText {
    /// `text` with every control character (C0, DEL, C1) escaped; newlines too unless
    /// `keepingNewlines` (a message that is several lines on purpose).
    public static func escaped(_ text: String, keepingNewlines: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: { needsEscape($0, keepingNewlines) }) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar, keepingNewlines) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            let value = scalar.value
            let digits = hex(value)
            result += value < 0x80 ? "\\x" + (digits.count == 1 ? "0" : "") + digits : "\\u{" + digits + "}"
        }
        return result
    }

    private static func needsEscape(_ scalar: Unicode.Scalar, _ keepingNewlines: Bool) -> Bool {
        let value = scalar.value
        if value == 0x0A { return !keepingNewlines }
        return value < 0x20 || (value >= 0x7F && value < 0xA0)
    }

    private static func hex(_ value: UInt32) -> String {
        let symbols = Array("0123456789abcdef".unicodeScalars)
        var digits = ""
        var rest = value
        repeat {
            digits.unicodeScalars.insert(symbols[Int(rest & 0xF)], at: digits.unicodeScalars.startIndex)
            rest >>= 4
        } while rest != 0
        return digits
    }
}
