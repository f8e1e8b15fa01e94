/// A looks file names chains of steps, one look a line:
///
///     # comment
///     dusk = tint 1 0.7 0.5 0.4, contrast 1.2
///     film people = cube film.cube, fade 0.1
///     dream backdrop = soft, warm
///
/// `NAME [people|backdrop|both] = STEP, STEP, ...`. A step is a step name with its numbers
/// (`LookSpec` lists them), a built-in look's name (its steps), or `cube FILE` naming a .cube file
/// read beforehand. Hostile input: line length, look count and steps per look are bounded, every
/// number is range-checked, and a refusal names the line.
public enum LooksFile {
    public static let maxLooks = 64
    public static let maxBytes = 64 << 10

    /// `cubes`: the .cube files beside the looks file, by file name, already parsed.
    public static func parse(_ bytes: [UInt8], cubes: [String: CubeTable]) throws(LookFileError) -> [Look] {
        guard bytes.count <= maxBytes else {
            throw LookFileError(line: 0, "the looks file is \(bytes.count) bytes; at most \(maxBytes)")
        }
        var looks: [Look] = []
        var lineNumber = 0
        var start = 0
        while start < bytes.count {
            lineNumber += 1
            var end = start
            while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
            let next = end + 1
            if end > start && bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            let line = bytes[start..<end]
            start = next
            guard line.count <= CubeParser.maxLineBytes else {
                throw LookFileError(line: lineNumber, "the line is longer than \(CubeParser.maxLineBytes) bytes")
            }
            for byte in line where byte < 0x20 && byte != 0x09 || byte >= 0x7F {
                throw LookFileError(line: lineNumber, "a byte that is not printable ASCII: a looks file is plain text")
            }
            let head = CubeParser.split(line)
            guard let first = head.first, first.first != UInt8(ascii: "#") else { continue }
            guard let equals = line.firstIndex(of: UInt8(ascii: "=")) else {
                throw LookFileError(line: lineNumber, "expected NAME [people|backdrop|both] = STEP, STEP, ...")
            }
            let left = CubeParser.split(line[line.startIndex..<equals])
            guard left.count == 1 || left.count == 2 else {
                throw LookFileError(line: lineNumber, "before '=' comes a name and, optionally, people, backdrop or both")
            }
            let name = String(decoding: left[0], as: UTF8.self)
            guard LookSpec.isName(name) else {
                throw LookFileError(line: lineNumber, "the name \(CubeParser.printable(name)) may hold letters, digits, '-' and '_' only (at most 32)")
            }
            var target = LookTarget.both
            if left.count == 2 {
                guard let chosen = LookTarget(rawValue: String(decoding: left[1], as: UTF8.self)) else {
                    throw LookFileError(line: lineNumber, "after the name: people, backdrop or both")
                }
                target = chosen
            }
            for look in looks where look.name == name {
                throw LookFileError(line: lineNumber, "the look \(CubeParser.printable(name)) is named twice")
            }
            guard looks.count < maxLooks else { throw LookFileError(line: lineNumber, "more than \(maxLooks) looks") }
            let steps: [LookStep]
            do {
                steps = try LookSpec.steps(line[(equals + 1)...], cubes: cubes)
            } catch {
                throw LookFileError(line: lineNumber, error.reason)
            }
            looks.append(Look(name: name, steps: steps, target: target))
        }
        return looks
    }
}
