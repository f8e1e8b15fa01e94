/// A command's arguments after parsing: positional words and `--name value` / `--flag` options.
/// Hand-written because swift-argument-parser is an outside package and does not build Embedded.
struct CommandOptions {
    private(set) var positional: [String] = []
    private var values: [String: String] = [:]
    private var flags: [String] = []

    /// Parses `arguments` knowing which options take a value and which are flags.
    /// Returns a usage message for anything unknown or incomplete.
    static func parse(_ arguments: [String], valued: [String], flags known: [String]) -> Result<CommandOptions, UsageError> {
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
                            return .failure(UsageError("\(name) needs a value"))
                        }
                        index += 1
                        options.values[name] = arguments[index]
                    }
                } else if known.contains(name) && inlineValue == nil {
                    options.flags.append(name)
                } else {
                    return .failure(UsageError("unknown option \(word)"))
                }
            } else {
                options.positional.append(word)
            }
            index += 1
        }
        return .success(options)
    }

    func value(_ name: String) -> String? { values[name] }
    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// A positive integer option, or a usage error naming the option and the allowed range.
    func integer(_ name: String, default fallback: Int, range: ClosedRange<Int>) -> Result<Int, UsageError> {
        guard let text = values[name] else { return .success(fallback) }
        guard let number = Int(text), range.contains(number) else {
            return .failure(UsageError("\(name) \(text): expected a whole number in \(range.lowerBound)...\(range.upperBound)"))
        }
        return .success(number)
    }
}
