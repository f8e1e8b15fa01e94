import Settings

/// The verdict on a stick's `backdrop.conf`: taken whole or refused whole, never partly applied
/// (the same rule as the box's own config). Refused for the parser's reasons (the same messages as
/// `backdrop check-config`) or because it sets a path key.
public enum StickConfig {
    public enum Verdict {
        /// The text to store, and the parser's warnings (unknown keys), which do not refuse it.
        case accepted(bytes: [UInt8], warnings: [String])
        case refused([String])
    }

    /// `bytes` are the file as read; `fileName` labels messages. A UTF-8 BOM and CRLF line ends
    /// are accepted (libinih skips the BOM and strips the CR), so they are stored as they came.
    public static func judge(_ bytes: [UInt8], fileName: String) -> Verdict {
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.utf8.elementsEqual(bytes) else {
            return .refused(["\(fileName): not UTF-8 text; save it as UTF-8 (plain text)"])
        }
        if bytes.contains(0) { return .refused(["\(fileName): contains NUL bytes; it is not a text file"]) }
        let paths = Settings.pathAssignments(in: text, fileName: fileName)
        let parse = Settings.parse(text, fileName: fileName)
        let problems = parse.problems + paths
        guard problems.isEmpty else { return .refused(problems) }
        return .accepted(bytes: bytes, warnings: parse.warnings)
    }
}
