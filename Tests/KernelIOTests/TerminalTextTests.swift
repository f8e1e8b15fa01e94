import KernelIO
import Testing

@Suite struct TerminalTextTests {
    @Test func controlCharactersBecomeEscapes() {
        #expect(TerminalText.escaped("a\u{1B}[2Jb") == "a\\x1b[2Jb")
        #expect(TerminalText.escaped("bell\u{07}del\u{7F}c1\u{85}") == "bell\\x07del\\x7fc1\\u{85}")
        #expect(TerminalText.escaped("name\nforged: line") == "name\\x0aforged: line")
        #expect(TerminalText.escaped("tab\there") == "tab\\x09here")
    }

    @Test func printableTextAndWantedNewlinesStay() {
        #expect(TerminalText.escaped("Grüße, 写真 ok.png") == "Grüße, 写真 ok.png")
        #expect(TerminalText.escaped("two\nlines\u{1B}", keepingNewlines: true) == "two\nlines\\x1b")
    }
}
