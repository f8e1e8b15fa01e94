/// The spelling of a chain of steps, "sepia 0.8, contrast 1.2": the looks file's right-hand side
/// and the command line's `--look`. Each step's numbers are range-checked here, so a look that
/// parses is one the box can fold.
///
///   mono | noir | vintage | thermal | xray | invert
///   sepia [AMOUNT 0..1, default 1]     fade AMOUNT 0..1
///   tint R G B [AMOUNT] (0..1 each)     saturation FACTOR 0..4     contrast FACTOR 0..4
///   exposure STOPS -4..4               posterize LEVELS 2..64
///   blur RADIUS 1..64                  pixellate SIZE 2..256      cube FILE
///   a built-in look's name (its steps)
public enum LookSpec {
    public static let maxSteps = 32

    static func isName(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 32 else { return false }
        for byte in name.utf8 {
            let ok = (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            if !ok { return false }
        }
        return true
    }

    public static func steps(_ text: String, cubes: [String: CubeTable] = [:]) throws(LookFileError) -> [LookStep] {
        try steps(Array(text.utf8)[...], cubes: cubes)
    }

    /// Line 0 in the errors: the caller knows where the text came from.
    static func steps(_ text: ArraySlice<UInt8>, cubes: [String: CubeTable]) throws(LookFileError) -> [LookStep] {
        var result: [LookStep] = []
        var start = text.startIndex
        while start <= text.endIndex {
            let comma = text[start...].firstIndex(of: UInt8(ascii: ",")) ?? text.endIndex
            let words = CubeParser.split(text[start..<comma])
            guard let first = words.first else { throw LookFileError(line: 0, "an empty step (two commas, or none after '=')") }
            result += try step(String(decoding: first, as: UTF8.self), Array(words.dropFirst()), cubes: cubes)
            guard result.count <= maxSteps else { throw LookFileError(line: 0, "more than \(maxSteps) steps in one look") }
            start = comma + 1
        }
        return result
    }

    private static func step(_ name: String, _ arguments: [ArraySlice<UInt8>],
                             cubes: [String: CubeTable]) throws(LookFileError) -> [LookStep] {
        var numbers: [Float] = []
        if name != "cube" {
            for argument in arguments {
                guard let value = NumberSyntax.decimal(argument) else {
                    throw LookFileError(line: 0, "\(name): \(CubeParser.printable(String(decoding: argument, as: UTF8.self))) is not a number")
                }
                numbers.append(Float(value))
            }
        }
        func take(_ count: ClosedRange<Int>, _ ranges: [ClosedRange<Float>]) throws(LookFileError) -> [Float] {
            guard count.contains(numbers.count) else {
                let wanted = count.lowerBound == count.upperBound ? "\(count.lowerBound)" : "\(count.lowerBound) to \(count.upperBound)"
                throw LookFileError(line: 0, "\(name) takes \(wanted) numbers, not \(numbers.count)")
            }
            for (i, value) in numbers.enumerated() where !ranges[i].contains(value) {
                throw LookFileError(line: 0, "\(name): \(value) is outside \(ranges[i].lowerBound)...\(ranges[i].upperBound)")
            }
            return numbers
        }
        let unit: ClosedRange<Float> = 0...1
        switch name {
        case "mono": _ = try take(0...0, []); return [.mono]
        case "noir": _ = try take(0...0, []); return [.noir]
        case "vintage": _ = try take(0...0, []); return [.vintage]
        case "thermal": _ = try take(0...0, []); return [.thermal]
        case "xray": _ = try take(0...0, []); return [.xray]
        case "invert": _ = try take(0...0, []); return [.invert]
        case "sepia":
            let n = try take(0...1, [unit])
            return [.sepia(amount: n.first ?? 1)]
        case "fade": return [.fade(amount: try take(1...1, [unit])[0])]
        case "tint":
            let n = try take(3...4, [unit, unit, unit, unit])
            return [.tint(red: n[0], green: n[1], blue: n[2], amount: n.count == 4 ? n[3] : 1)]
        case "saturation": return [.saturation(factor: try take(1...1, [0...4])[0])]
        case "contrast": return [.contrast(factor: try take(1...1, [0...4])[0])]
        case "exposure": return [.exposure(stops: try take(1...1, [-4...4])[0])]
        case "posterize":
            let n = try take(1...1, [2...64])[0]
            guard n == n.rounded() else { throw LookFileError(line: 0, "posterize takes a whole number of levels") }
            return [.posterize(levels: Int(n))]
        case "blur":
            let n = try take(1...1, [1...64])[0]
            guard n == n.rounded() else { throw LookFileError(line: 0, "blur takes a whole number of pixels") }
            return [.blur(radius: Int(n))]
        case "pixellate":
            let n = try take(1...1, [2...256])[0]
            guard n == n.rounded() else { throw LookFileError(line: 0, "pixellate takes a whole number of pixels") }
            return [.pixellate(size: Int(n))]
        case "cube":
            guard arguments.count == 1 else { throw LookFileError(line: 0, "cube takes one file name") }
            let file = String(decoding: arguments[0], as: UTF8.self)
            guard let table = cubes[file] else {
                throw LookFileError(line: 0, "cube \(CubeParser.printable(file)): no such .cube file beside the looks file")
            }
            return [.cube(table)]
        default:
            if arguments.isEmpty, let look = BuiltInLooks.named(name) { return look.steps }
            throw LookFileError(line: 0, "unknown step \(CubeParser.printable(name)) (mono, noir, sepia, tint, vintage, fade, saturation, contrast, exposure, posterize, thermal, xray, invert, blur, pixellate, cube, or a built-in look)")
        }
    }
}
