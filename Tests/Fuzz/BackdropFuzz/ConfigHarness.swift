import KernelIO
import Settings

enum ConfigHarness {
    static func run(_ bytes: UnsafeRawBufferPointer) {
        // As ConfigFile does: the file's bytes decoded as UTF-8 (invalid sequences repaired).
        let text = String(decoding: bytes, as: UTF8.self)
        let result = Settings.parse(text, fileName: "fuzz.conf")
        // Every message reaches the terminal through the escaping; exercise it on them too.
        for line in result.problems + result.warnings {
            precondition(!TerminalText.escaped(line, keepingNewlines: true).utf8.contains { $0 == 0x1B },
                         "an escape byte survived in a message")
        }
        precondition(result.settings == nil || result.problems.isEmpty, "settings given despite problems")
    }
}
