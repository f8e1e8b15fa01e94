/// Turns config text into settings: libinih for the syntax, the schema for each key, the draft
/// for combinations. All problems are collected before deciding, so one edit can fix them all.
enum SettingsParser {
    static func parse(_ text: String, fileName: String) -> SettingsParse {
        let document = IniDocument(text: text)
        // (line, message); cross-key problems have no single line and sort last.
        var problems: [(line: Int, message: String)] = []
        var warnings: [String] = []

        for (line, reason) in document.lineProblems {
            problems.append((line, "\(fileName):\(line): \(reason)"))
        }

        var draft = SettingsDraft()
        var seen: [String: Int] = [:]
        var warnedSections: [String] = []
        for assignment in document.assignments {
            let at = "\(fileName):\(assignment.line): "
            let quoted = "[\(assignment.section)] \(assignment.name) = \(assignment.value)"
            let place = "\(assignment.section).\(assignment.name)"
            guard !assignment.name.isEmpty else {
                problems.append((assignment.line, at + IniDocument.syntaxError))
                continue
            }
            if assignment.indented, let previous = seen[place] {
                problems.append((assignment.line, at + "indented line continues [\(assignment.section)] "
                    + "\(assignment.name) from line \(previous); start every key at the beginning of its line"))
                continue
            }
            if let previous = seen[place] {
                problems.append((assignment.line, at + quoted + ": already set on line \(previous); keep one"))
                continue
            }
            seen[place] = assignment.line

            guard SettingsSchema.sections.contains(assignment.section) else {
                if !warnedSections.contains(assignment.section) {
                    warnedSections.append(assignment.section)
                    warnings.append(at + (assignment.section.isEmpty
                        ? "\(assignment.name) is outside any section, ignored"
                        : "[\(assignment.section)]: unknown section, its keys are ignored (known sections: "
                            + list(SettingsSchema.sections) + ")"))
                }
                continue
            }
            guard let key = SettingsSchema.key(section: assignment.section, name: assignment.name) else {
                var names: [String] = []
                for key in SettingsSchema.keys where key.section == assignment.section { names.append(key.name) }
                warnings.append(at + "[\(assignment.section)] \(assignment.name): unknown key, ignored (known keys: "
                    + list(names) + ")")
                continue
            }
            if let complaint = key.kind.apply(assignment.value, to: &draft) {
                // libinih only treats " ;" as an inline comment; "#" mid-line stays in the value.
                let hint = assignment.value.contains("#") ? " (inline comments start with \";\")" : ""
                problems.append((assignment.line, at + quoted + ": \(complaint), allowed \(key.allowed)" + hint))
            }
        }

        let finished = draft.finish(prefix: "\(fileName): ")
        for problem in finished.problems { problems.append((Int.max, problem)) }
        warnings += finished.warnings

        guard problems.isEmpty else {
            var messages: [String] = []
            // Ties keep the order found (cross-key problems all share Int.max).
            let order = problems.indices.sorted {
                (problems[$0].line, $0) < (problems[$1].line, $1)
            }
            for index in order { messages.append(problems[index].message) }
            return .invalid(problems: messages, warnings: warnings)
        }
        return .valid(draft.settings, warnings: warnings)
    }

    private static func list(_ names: [String]) -> String {
        var text = ""
        for name in names { text += text.isEmpty ? name : ", " + name }
        return text
    }
}
