/// Where a button's line is: by name (preferred, survives renumbering) or by chip label and offset
/// for boards whose device tree names no lines.
public enum ButtonLineAddress: Equatable, Sendable {
    case named(String)
    case chip(label: String, offset: Int)

    public var description: String {
        switch self {
        case .named(let name): return name
        case .chip(let label, let offset): return "\(label):\(offset)"
        }
    }

    /// "NAME" or "chip-label:OFFSET" (the offset after the last colon).
    public static func parse(_ text: String) -> ButtonLineAddress? {
        guard !text.isEmpty else { return nil }
        if let colon = text.lastIndex(of: ":") {
            let label = String(text[text.startIndex..<colon])
            if let offset = Int(text[text.index(after: colon)...]), offset >= 0, !label.isEmpty {
                return .chip(label: label, offset: offset)
            }
        }
        return .named(text)
    }
}
