/// Reads an Adobe .cube file (the Cube LUT specification 1.0, plus the LUT_1D/3D_INPUT_RANGE
/// lines DaVinci Resolve writes) as hostile input: the file comes from a stick, so its size,
/// every line and every number are checked before anything is allocated from them, and a
/// refusal names the line.
///
/// Accepted: `#` comments and blank lines anywhere; `TITLE "text"`; `LUT_1D_SIZE n` (2...4096) or
/// `LUT_3D_SIZE n` (2...65), one of them; `DOMAIN_MIN r g b` / `DOMAIN_MAX r g b` (each min below
/// its max); then exactly n (1D) or n^3 (3D) lines of three numbers, red varying fastest; LF or
/// CRLF line ends. Values must lie within +-16 (the format's tables hold 0...1, HDR ones a little
/// more). Refused: anything else, with its line number.
public enum CubeParser {
    public static let maxBytes = 16 << 20
    public static let maxLineBytes = 1024
    public static let max3DSize = 65
    public static let max1DSize = 4096
    public static let valueLimit: Double = 16
    static let keywords = ["TITLE", "LUT_1D_SIZE", "LUT_3D_SIZE", "DOMAIN_MIN", "DOMAIN_MAX", "LUT_1D_INPUT_RANGE",
                           "LUT_3D_INPUT_RANGE"]

    public static func parse(_ bytes: [UInt8]) throws(LookFileError) -> CubeTable {
        guard bytes.count <= maxBytes else {
            throw LookFileError(line: 0, "the file is \(bytes.count) bytes; a .cube file here may be at most \(maxBytes) (a 65-point 3D table is about 9 MB)")
        }
        var title = ""
        var size = 0
        var oneDimensional = false
        var domainMin = SIMD3<Float>(repeating: 0), domainMax = SIMD3<Float>(repeating: 1)
        var domainLine = 0
        var seen: Set<String> = []
        var values: [Float] = []
        var expected = 0
        var lineNumber = 0
        var start = 0
        while start < bytes.count {
            lineNumber += 1
            var end = start
            while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
            let next = end + 1
            if end > start && bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            guard end - start <= maxLineBytes else {
                throw LookFileError(line: lineNumber, "the line is longer than \(maxLineBytes) bytes: not a .cube file?")
            }
            let line = bytes[start..<end]
            start = next
            try checkText(line, lineNumber)
            let tokens = split(line)
            guard let first = tokens.first, line[first.startIndex] != UInt8(ascii: "#") else { continue }
            if isNumberStart(line[first.startIndex]) {
                guard size > 0 else {
                    throw LookFileError(line: lineNumber, "table data before LUT_3D_SIZE or LUT_1D_SIZE")
                }
                guard values.count < expected * 3 else {
                    throw LookFileError(line: lineNumber, "more entries than the size \(size) gives (\(expected))")
                }
                guard tokens.count == 3 else {
                    throw LookFileError(line: lineNumber, "an entry is three numbers (red green blue), this line has \(tokens.count) items")
                }
                for token in tokens { values.append(try number(token, lineNumber, what: "value")) }
                continue
            }
            let keyword = String(decoding: first, as: UTF8.self)
            guard values.isEmpty else {
                guard keywords.contains(keyword) else {
                    throw LookFileError(line: lineNumber, "value \(printable(keyword)) is not a number (table entries are three numbers)")
                }
                throw LookFileError(line: lineNumber, "\(printable(keyword)) after the table data: keywords come first")
            }
            guard !seen.contains(keyword) else { throw LookFileError(line: lineNumber, "\(printable(keyword)) given twice") }
            seen.insert(keyword)
            switch keyword {
            case "TITLE":
                title = try quoted(line, after: first, lineNumber)
            case "LUT_1D_SIZE", "LUT_3D_SIZE":
                guard size == 0 else {
                    throw LookFileError(line: lineNumber, "both LUT_1D_SIZE and LUT_3D_SIZE: a file holds one table")
                }
                oneDimensional = keyword == "LUT_1D_SIZE"
                let limit = oneDimensional ? max1DSize : max3DSize
                guard tokens.count == 2, let n = NumberSyntax.integer(tokens[1]), n >= 2, n <= limit else {
                    throw LookFileError(line: lineNumber, "\(keyword) must be one whole number from 2 to \(limit)")
                }
                size = n
                expected = oneDimensional ? n : n * n * n
                values.reserveCapacity(expected * 3)
            case "DOMAIN_MIN", "DOMAIN_MAX":
                guard tokens.count == 4 else {
                    throw LookFileError(line: lineNumber, "\(keyword) takes three numbers (red green blue)")
                }
                let v = SIMD3<Float>(try number(tokens[1], lineNumber, what: keyword),
                                     try number(tokens[2], lineNumber, what: keyword),
                                     try number(tokens[3], lineNumber, what: keyword))
                if keyword == "DOMAIN_MIN" { domainMin = v } else { domainMax = v }
                domainLine = lineNumber
            case "LUT_1D_INPUT_RANGE", "LUT_3D_INPUT_RANGE":
                guard tokens.count == 3 else { throw LookFileError(line: lineNumber, "\(keyword) takes two numbers (min max)") }
                domainMin = SIMD3(repeating: try number(tokens[1], lineNumber, what: keyword))
                domainMax = SIMD3(repeating: try number(tokens[2], lineNumber, what: keyword))
                domainLine = lineNumber
            default:
                throw LookFileError(line: lineNumber, "unknown keyword \(printable(keyword)) (a .cube file has TITLE, LUT_1D_SIZE, LUT_3D_SIZE, DOMAIN_MIN, DOMAIN_MAX, then numbers)")
            }
        }
        guard size > 0 else { throw LookFileError(line: 0, "no LUT_3D_SIZE or LUT_1D_SIZE line: not a .cube file") }
        guard domainMin.x < domainMax.x, domainMin.y < domainMax.y, domainMin.z < domainMax.z else {
            throw LookFileError(line: domainLine, "each DOMAIN_MIN must be below its DOMAIN_MAX")
        }
        guard values.count == expected * 3 else {
            throw LookFileError(line: lineNumber, "the table ends after \(values.count / 3) entries; size \(size) needs \(expected)")
        }
        return CubeTable(title: title, size: size, isOneDimensional: oneDimensional, domainMin: domainMin,
                         domainMax: domainMax, values: values)
    }

    /// Control bytes (other than tab) mean a binary file; bytes above 0x7F may appear only in a
    /// comment or the title, whose text is not interpreted.
    private static func checkText(_ line: ArraySlice<UInt8>, _ lineNumber: Int) throws(LookFileError) {
        var free = false
        for byte in line {
            if byte == UInt8(ascii: "#") || byte == UInt8(ascii: "\"") { free = true }
            if byte < 0x20 && byte != UInt8(ascii: "\t") || byte == 0x7F || byte >= 0x80 && !free {
                let hex = String(byte, radix: 16, uppercase: true)
                throw LookFileError(line: lineNumber, "byte 0x\(hex.count == 1 ? "0" + hex : hex) in the text: not a text .cube file")
            }
        }
    }

    static func split(_ line: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        var tokens: [ArraySlice<UInt8>] = []
        var index = line.startIndex
        while index < line.endIndex {
            while index < line.endIndex && (line[index] == 0x20 || line[index] == 0x09) { index += 1 }
            let begin = index
            while index < line.endIndex && line[index] != 0x20 && line[index] != 0x09 { index += 1 }
            if index > begin { tokens.append(line[begin..<index]) }
        }
        return tokens
    }

    private static func isNumberStart(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".")
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    private static func number(_ token: ArraySlice<UInt8>, _ lineNumber: Int, what: String) throws(LookFileError) -> Float {
        guard let value = NumberSyntax.decimal(token) else {
            throw LookFileError(line: lineNumber, "\(what) \(printable(String(decoding: token, as: UTF8.self))) is not a number")
        }
        guard value >= -valueLimit && value <= valueLimit else {
            throw LookFileError(line: lineNumber, "\(what) \(printable(String(decoding: token, as: UTF8.self))) is outside -16...16")
        }
        return Float(value)
    }

    private static func quoted(_ line: ArraySlice<UInt8>, after keyword: ArraySlice<UInt8>,
                               _ lineNumber: Int) throws(LookFileError) -> String {
        var rest = line[keyword.endIndex...]
        while let first = rest.first, first == 0x20 || first == 0x09 { rest = rest.dropFirst() }
        while let last = rest.last, last == 0x20 || last == 0x09 { rest = rest.dropLast() }
        guard rest.count >= 2, rest.first == UInt8(ascii: "\""), rest.last == UInt8(ascii: "\""),
              !rest.dropFirst().dropLast().contains(UInt8(ascii: "\"")) else {
            throw LookFileError(line: lineNumber, "TITLE takes one text in double quotes")
        }
        return String(decoding: rest.dropFirst().dropLast(), as: UTF8.self)
    }

    /// A keyword or token as it may be echoed in a message: at most 40 bytes.
    static func printable(_ text: String) -> String {
        text.utf8.count <= 40 ? "'\(text)'" : "'\(String(decoding: text.utf8.prefix(40), as: UTF8.self))...'"
    }
}
