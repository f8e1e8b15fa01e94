/// What libinih's reader and handler callbacks share through their context pointer. The reader
/// is ours (not ini_parse_string) so every callback knows the physical line it is on: libinih's
/// handler is not told line numbers, and its own string reader splits overlong lines silently.
final class IniReadState {
    private let bytes: [UInt8]
    /// Byte offset where each line starts (index 0 = line 1).
    let lineStarts: [Int]
    private var nextLine: Int
    private let recording: Bool

    private(set) var assignments: [IniAssignment] = []
    /// Lines libinih cannot be given as they are: (line, what is wrong).
    private(set) var unreadableLines: [(line: Int, reason: String)] = []

    /// Reads `bytes` starting at line `firstLine` (1-based). With `recording` false only syntax
    /// errors matter (a re-read to find the next one), so nothing is collected.
    init(bytes: [UInt8], lineStarts: [Int], firstLine: Int, recording: Bool) {
        self.bytes = bytes
        self.lineStarts = lineStarts
        self.nextLine = firstLine
        self.recording = recording
    }

    static func lineStarts(of bytes: [UInt8]) -> [Int] {
        var starts: [Int] = bytes.isEmpty ? [] : [0]
        for index in 0..<bytes.count where bytes[index] == UInt8(ascii: "\n") && index + 1 < bytes.count {
            starts.append(index + 1)
        }
        return starts
    }

    /// The line number libinih is working on: the last one handed out.
    var currentLine: Int { nextLine - 1 }

    /// fgets for libinih: copies the next line, newline included, NUL-terminated.
    func readLine(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Bool {
        guard nextLine - 1 < lineStarts.count, capacity >= 2 else { return false }
        let start = lineStarts[nextLine - 1]
        let end = nextLine < lineStarts.count ? lineStarts[nextLine] : bytes.count
        let line = nextLine
        nextLine += 1

        var problem: String? = nil
        // libinih needs room for the newline and the NUL; a longer line would come back as two.
        // The bound is on the line's characters, newline or not: a last line without one must not
        // pass at a length that fails once something is appended after it (the import adds the
        // box's own lines to a stick's config, and the fuzzer found exactly that).
        let characters = end - start - (bytes[end - 1] == UInt8(ascii: "\n") ? 1 : 0)
        if characters > capacity - 2 {
            problem = "line longer than \(capacity - 2) characters"
        } else if bytes[start..<end].contains(0) {
            problem = "line contains a NUL character"
        }
        if let problem {
            if recording { unreadableLines.append((line, problem)) }
            buffer[0] = CChar(bitPattern: UInt8(ascii: "\n"))
            buffer[1] = 0
            return true
        }
        for index in start..<end { buffer[index - start] = CChar(bitPattern: bytes[index]) }
        buffer[end - start] = 0
        return true
    }

    func record(section: String, name: String, value: String) {
        guard recording else { return }
        let line = currentLine
        let first = bytes[lineStarts[line - 1]]
        let indented = first == UInt8(ascii: " ") || first == UInt8(ascii: "\t")
        assignments.append(IniAssignment(section: section, name: name, value: value, line: line,
                                         indented: indented))
    }
}
