import Frames
import Runtime
import KernelIO

/// A command's arguments after parsing: positional words and `--name value` / `--flag` options.
/// Hand-written because swift-argument-parser is an outside package and does not build Embedded.
struct CommandOptions {
    private(set) var positional: [String] = []
    private var values: [String: String] = [:]
    private var flags: [String] = []

    /// Parses `arguments` knowing which options take a value and which are flags.
    /// Returns a usage message for anything unknown or incomplete.
    static func parse(_ arguments: [String], valued: [String], flags known: [String]) throws(CommandFailure) -> CommandOptions {
        var options = CommandOptions()
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            if word.hasPrefix("--") {
                var name = word
                var inlineValue: String? = nil
                if let equals = word.firstIndex(of: "=") {
                    name = String(word[word.startIndex..<equals])
                    inlineValue = String(word[word.index(after: equals)...])
                }
                if valued.contains(name) {
                    if let inlineValue {
                        options.values[name] = inlineValue
                    } else {
                        guard index + 1 < arguments.count else {
                            throw .invalidInput(("\(name) needs a value"))
                        }
                        index += 1
                        options.values[name] = arguments[index]
                    }
                } else if known.contains(name) && inlineValue == nil {
                    options.flags.append(name)
                } else {
                    let all = (valued + known).sorted()
                    throw .invalidInput("unknown option \(TerminalText.escaped(word)); "
                                        + (all.isEmpty ? "this command takes none" : "known: " + all.joined(separator: " ")))
                }
            } else {
                options.positional.append(word)
            }
            index += 1
        }
        return options
    }

    func value(_ name: String) -> String? { values[name] }
    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// A "WxH" option, or a usage error.
    func size(_ name: String) throws(CommandFailure) -> FrameSize? {
        guard let text = values[name] else { return nil }
        guard let size = FrameSize.parse(text), size.width % 2 == 0, size.height % 2 == 0 else {
            throw .invalidInput("\(name) \(text): expected WIDTHxHEIGHT, even numbers from 2 to 16384 (e.g. 1280x720)")
        }
        return size
    }

    /// Exactly `count` positional words, or a usage error naming what is missing.
    func positionals(_ count: Int, names: String) throws(CommandFailure) -> [String] {
        guard positional.count == count else {
            throw .invalidInput(positional.count < count ? "missing \(names)" : "unexpected argument \(positional[count])")
        }
        return positional
    }

    /// A positive integer option, or a usage error naming the option and the allowed range.
    func integer(_ name: String, default fallback: Int, range: ClosedRange<Int>) throws(CommandFailure) -> Int {
        guard let text = values[name] else { return fallback }
        guard let number = Int(text), range.contains(number) else {
            throw .invalidInput(("\(name) \(text): expected a whole number in \(range.lowerBound)..\(range.upperBound)"))
        }
        return number
    }
}
