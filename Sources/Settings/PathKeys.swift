extension Settings {
    /// One message per assignment in `text` to a key that names a file or folder (`[background]
    /// directory`, `[photos] directory`, every `.path` key of the schema), in line order, worded
    /// like the parser's own ("FILE:LINE: [section] key = value: ..."). A config that comes from
    /// outside the box (a USB stick) must not point the box at other folders, so the import refuses
    /// such a file; the box's own config may set them.
    public static func pathAssignments(in text: String, fileName: String) -> [String] {
        var messages: [String] = []
        for assignment in IniDocument(text: text).assignments {
            guard let key = SettingsSchema.key(section: assignment.section, name: assignment.name),
                  case .path = key.kind else { continue }
            messages.append("\(fileName):\(assignment.line): [\(assignment.section)] \(assignment.name) = "
                + "\(assignment.value): a config from a stick cannot set paths (the box keeps its own folders); "
                + "remove this line")
        }
        return messages
    }

    /// The line numbers (from 1) where `text` assigns `[section] name`.
    public static func assignmentLines(section: String, name: String, in text: String) -> [Int] {
        IniDocument(text: text).assignments.filter { $0.section == section && $0.name == name }.map { $0.line }
    }

    /// True when `text` assigns `[section] name` (whatever the value).
    public static func assigns(section: String, name: String, in text: String) -> Bool {
        IniDocument(text: text).assignments.contains { $0.section == section && $0.name == name }
    }
}
