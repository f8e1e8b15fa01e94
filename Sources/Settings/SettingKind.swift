import Frames

/// What one key accepts, and where an accepted value goes. Each case carries the setter so the
/// schema stays one table: adding a key is one line there, with its range next to its name.
enum SettingKind: Sendable {
    typealias Apply<Value> = @Sendable (inout SettingsDraft, Value) -> Void

    case integer(ClosedRange<Int>, unit: String, Apply<Int>)
    case decimal(ClosedRange<Double>, unit: String, Apply<Double>)
    case boolean(Apply<Bool>)
    case oneOf([String], Apply<String>)
    /// A non-empty word without spaces (a board name, a GPIO line name).
    case word(Apply<String>)
    /// A non-empty file or directory path.
    case path(Apply<String>)
    /// "auto" or an absolute device node path.
    case device(Apply<DeviceChoice>)
    /// "auto" or WxH.
    case sizeOrAuto(Apply<FrameSize?>)
    case cpus(Apply<CPUSelection>)
    /// A comma-separated list of names (letters, digits, '-', '_'; at most 32 each, 64 names).
    case names(Apply<[String]>)
    /// One such name.
    case name(Apply<String>)

    static func choice<Choice: SettingChoice>(
        _: Choice.Type, _ apply: @escaping @Sendable (inout SettingsDraft, Choice) -> Void
    ) -> SettingKind {
        .oneOf(Choice.allCases.map { $0.name }) { draft, text in
            for value in Choice.allCases where value.name == text { apply(&draft, value) }
        }
    }

    /// What is allowed, as messages and config/backdrop.conf state it.
    var allowed: String {
        switch self {
        case .integer(let range, let unit, _):
            return "\(range.lowerBound)..\(range.upperBound) (\(unit))"
        case .decimal(let range, let unit, _):
            return "\(ValueSyntax.format(range.lowerBound))..\(ValueSyntax.format(range.upperBound)) (\(unit))"
        case .boolean:
            return "true, false, yes, no, on, off, 1, 0"
        case .oneOf(let names, _):
            var text = ""
            for name in names { text += text.isEmpty ? name : ", " + name }
            return text
        case .word:
            return "a name without spaces"
        case .path:
            return "a path"
        case .device:
            return "auto or an absolute device path"
        case .sizeOrAuto:
            return "auto or WIDTHxHEIGHT, each 1..16384"
        case .cpus:
            return "all or a comma-separated list of CPU numbers 0..63"
        case .names:
            return "a comma-separated list of look names"
        case .name:
            return "a look name"
        }
    }

    /// Stores `text` into `draft`, or says what is wrong with it (nil when accepted).
    func apply(_ text: String, to draft: inout SettingsDraft) -> String? {
        switch self {
        case .integer(let range, _, let set):
            guard let value = ValueSyntax.integer(text) else { return "not a whole number" }
            guard range.contains(value) else { return "out of range" }
            set(&draft, value)
        case .decimal(let range, _, let set):
            guard let value = ValueSyntax.decimal(text) else { return "not a decimal number" }
            guard range.contains(value) else { return "out of range" }
            set(&draft, value)
        case .boolean(let set):
            guard let value = ValueSyntax.boolean(text) else { return "not a yes/no value" }
            set(&draft, value)
        case .oneOf(let names, let set):
            guard names.contains(text) else { return "unknown value" }
            set(&draft, text)
        case .word(let set):
            guard ValueSyntax.isSingleWord(text) else { return text.isEmpty ? "empty" : "contains spaces" }
            set(&draft, text)
        case .path(let set):
            guard !text.isEmpty else { return "empty" }
            // libinih keeps quotes as part of the value; a quoted path would name a different file.
            guard !text.hasPrefix("\""), !text.hasPrefix("'") else { return "quoted (write it without quotes)" }
            set(&draft, text)
        case .device(let set):
            if text == "auto" {
                set(&draft, .auto)
            } else {
                guard text.hasPrefix("/"), ValueSyntax.isSingleWord(text) else { return "not a device" }
                set(&draft, .named(text))
            }
        case .sizeOrAuto(let set):
            if text == "auto" {
                set(&draft, nil)
            } else {
                guard let size = FrameSize.parse(text) else { return "not a size" }
                set(&draft, size)
            }
        case .cpus(let set):
            if text == "all" {
                set(&draft, .all)
                return nil
            }
            var cpus: [Int] = []
            for part in text.split(separator: ",", omittingEmptySubsequences: false) {
                let trimmed = Self.trimmingSpaces(part)
                guard let cpu = ValueSyntax.integer(trimmed), (0...63).contains(cpu) else {
                    return trimmed.isEmpty ? "empty entry in the list" : "\"\(trimmed)\" is not a CPU number"
                }
                guard !cpus.contains(cpu) else { return "CPU \(cpu) listed twice" }
                cpus.append(cpu)
            }
            set(&draft, .list(cpus))
        case .names(let set):
            var names: [String] = []
            for part in text.split(separator: ",", omittingEmptySubsequences: false) {
                let trimmed = Self.trimmingSpaces(part)
                guard Self.isName(trimmed) else {
                    return trimmed.isEmpty ? "empty entry in the list" : "\"\(trimmed)\" is not a look name"
                }
                guard !names.contains(trimmed) else { return "\(trimmed) listed twice" }
                names.append(trimmed)
            }
            guard names.count <= 64 else { return "more than 64 names" }
            set(&draft, names)
        case .name(let set):
            guard Self.isName(text) else { return "not a look name" }
            set(&draft, text)
        }
        return nil
    }

    /// Letters, digits, '-' and '_', 1 to 32 of them (the Looks module's names).
    private static func isName(_ text: String) -> Bool {
        guard !text.isEmpty, text.utf8.count <= 32 else { return false }
        for byte in text.utf8 {
            let ok = (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            if !ok { return false }
        }
        return true
    }

    private static func trimmingSpaces(_ text: Substring) -> String {
        var view = text
        while view.first == " " { view = view.dropFirst() }
        while view.last == " " { view = view.dropLast() }
        return String(view)
    }
}
