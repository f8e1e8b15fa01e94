/// Why a command could not finish: bad input (exit 2) or a runtime failure (exit 1), or a
/// request that had nothing to do (exit 2, said as a note, not an error: `import` of the stick the
/// box already runs).
public struct CommandFailure: Error {
    public let message: String
    public let code: ExitCode
    public var isNote = false

    public static func nothingChanged(_ message: String) -> CommandFailure {
        CommandFailure(message: message, code: .invalidInput, isNote: true)
    }

    public static func invalidInput(_ message: String) -> CommandFailure { CommandFailure(message: message, code: .invalidInput) }
    public static func runtime(_ message: String) -> CommandFailure { CommandFailure(message: message, code: .runtimeFailure) }
}
