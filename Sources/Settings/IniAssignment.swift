/// One `name = value` line as libinih delivered it, with the line it came from.
struct IniAssignment {
    var section: String
    var name: String
    var value: String
    var line: Int
    /// The line began with whitespace: libinih reads it as a continuation of the previous key's
    /// value (configparser style), which is almost never what the person meant.
    var indented: Bool
}
