/// The rules for a file name that comes from a stick. A name is taken as it is or not at all
/// (never rewritten into another file's name, which could collide), and what is printed about a
/// refused one is made harmless for a terminal, a log line and the screen.
enum StickName {
    /// Why `name` cannot become a file of the box, or nil when it can be taken unchanged.
    static func problem(_ name: String, limits: ImportLimits) -> String? {
        if name.utf8.count > limits.nameBytes { return "name longer than \(limits.nameBytes) bytes" }
        if name == "." || name == ".." { return "name is \"\(name)\"" }
        if name.hasPrefix("-") { return "name starts with \"-\"" }
        if name.hasPrefix(".") { return "hidden file (name starts with \".\")" }
        for scalar in name.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value) {
                return "name contains control characters"
            }
            if scalar == "/" || scalar == "\\" { return "name contains a slash" }
            if scalar.value == 0xFFFD { return "name is not valid UTF-8" }
        }
        return nil
    }

    /// `name` with every control character, backslash and replacement character shown as "?",
    /// cut to 60 characters: safe to print whatever the stick holds.
    static func printable(_ name: String) -> String {
        var text = ""
        var count = 0
        for scalar in name.unicodeScalars {
            if count == 60 { text += "…"; break }
            let unsafe = scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value)
                || scalar == "\\" || scalar.value == 0xFFFD
            text.unicodeScalars.append(unsafe ? "?" : scalar)
            count += 1
        }
        return text
    }

    /// PNG or JPEG by the name's ending (the content is checked too; this only sorts out files that
    /// are obviously something else, with a clearer reason).
    static func looksLikeImage(_ name: String) -> Bool {
        let lower = name.lowercased()
        return lower.hasSuffix(".png") || lower.hasSuffix(".jpg") || lower.hasSuffix(".jpeg")
    }
}
