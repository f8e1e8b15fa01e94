import CInih

/// INI text split by libinih into assignments and syntax errors, each with its line number.
struct IniDocument {
    var assignments: [IniAssignment] = []
    /// (line, what is wrong), in line order.
    var lineProblems: [(line: Int, reason: String)] = []

    /// Beyond this many syntax errors the file is clearly not INI; stop re-reading it.
    static let syntaxErrorLimit = 20

    static let syntaxError = "syntax error (expected \"key = value\" or \"[section]\")"

    init(text: String) {
        let bytes = Array(text.utf8)
        let lineStarts = IniReadState.lineStarts(of: bytes)
        let state = IniReadState(bytes: bytes, lineStarts: lineStarts, firstLine: 1, recording: true)
        // libinih keeps going after a syntax error but reports only the first; each later one is
        // found by reading again from the line after the last one found.
        var errorLine = Self.run(state)
        assignments = state.assignments
        var problems = state.unreadableLines
        var found = 0
        while errorLine > 0 && found < Self.syntaxErrorLimit {
            problems.append((errorLine, Self.syntaxError))
            found += 1
            let rest = IniReadState(bytes: bytes, lineStarts: lineStarts, firstLine: errorLine + 1,
                                    recording: false)
            // libinih numbers the re-read's lines from 1.
            let next = Self.run(rest)
            errorLine = next > 0 ? errorLine + next : 0
        }
        if errorLine > 0 {
            problems.append((errorLine, "more syntax errors from here on; not listed"))
        }
        lineProblems = problems.sorted { $0.line < $1.line }
    }

    /// Returns libinih's verdict: 0, or the first line it could not parse. The caller keeps
    /// `state` alive for the call, so the unretained context pointer stays valid.
    private static func run(_ state: IniReadState) -> Int {
        let context = Unmanaged.passUnretained(state).toOpaque()
        let result = ini_parse_stream({ buffer, capacity, stream in
            guard let buffer, let stream else { return nil }
            let state = Unmanaged<IniReadState>.fromOpaque(stream).takeUnretainedValue()
            return state.readLine(into: buffer, capacity: Int(capacity)) ? buffer : nil
        }, context, { user, section, name, value in
            guard let user, let section, let name, let value else { return 1 }
            let state = Unmanaged<IniReadState>.fromOpaque(user).takeUnretainedValue()
            state.record(section: String(cString: section), name: String(cString: name),
                         value: String(cString: value))
            // Always "handled": value checks are ours, and a 0 here would be reported as a syntax error.
            return 1
        }, context)
        return Int(result)
    }
}
