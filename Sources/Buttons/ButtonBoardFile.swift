import Controls

/// Reads board/<board>/buttons.conf: `role = line` for each ButtonRole, `active_low = true|false`,
/// `bias = pull-up|pull-down|disabled|as-is`; `#` starts a comment. Pure: the caller reads the file.
public enum ButtonBoardFile {
    /// Errors name the line number and what is allowed.
    public static func parse(_ text: String) throws(ButtonError) -> ButtonWiring {
        var wiring = ButtonWiring()
        var number = 0
        // "\r\n" is one Character in Swift, so it must be named as a separator of its own.
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            number += 1
            let line = trimmed(rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
            if line.isEmpty { continue }
            guard let equals = line.firstIndex(of: "=") else {
                throw ButtonError.invalidBoard(line: number, "expected key = value")
            }
            let key = trimmed(line[line.startIndex..<equals])
            let value = trimmed(line[line.index(after: equals)...])
            if let role = ButtonRole.named(key) {
                guard let address = ButtonLineAddress.parse(value) else {
                    throw ButtonError.invalidBoard(line: number, "\(key) needs a line name or chip-label:offset")
                }
                wiring.setLine(role, address)
            } else if key == "active_low" {
                guard value == "true" || value == "false" else {
                    throw ButtonError.invalidBoard(line: number, "active_low is true or false, not '\(value)'")
                }
                wiring.activeLow = value == "true"
            } else if key == "bias" {
                guard let bias = ButtonBias.named(value) else {
                    throw ButtonError.invalidBoard(line: number, "bias is pull-up, pull-down, disabled or as-is, not '\(value)'")
                }
                wiring.bias = bias
            } else {
                throw ButtonError.invalidBoard(line: number, "unknown key '\(key)' (next, previous, shutter, active_low, bias)")
            }
        }
        return wiring
    }

    private static func trimmed(_ text: Substring) -> String {
        var slice = text
        while let first = slice.first, first == " " || first == "\t" || first == "\r" { slice.removeFirst() }
        while let last = slice.last, last == " " || last == "\t" || last == "\r" { slice.removeLast() }
        return String(slice)
    }
}
