/// Why a command could not finish: bad input (exit 2) or a runtime failure (exit 1), or a
/// request that had nothing to do (exit 2, said as a note, not an error: `import` of the stick the
/// box already runs).
struct CommandFailure: Error {
    let message: String
    let code: ExitCode
    var isNote = false

    static func nothingChanged(_ message: String) -> CommandFailure {
        CommandFailure(message: message, code: .invalidInput, isNote: true)
    }

    static func invalidInput(_ message: String) -> CommandFailure { CommandFailure(message: message, code: .invalidInput) }
    static func runtime(_ message: String) -> CommandFailure { CommandFailure(message: message, code: .runtimeFailure) }
}
