/// Why a command could not finish: bad input (exit 2) or a runtime failure (exit 1).
struct CommandFailure: Error {
    let message: String
    let code: ExitCode

    static func invalidInput(_ message: String) -> CommandFailure { CommandFailure(message: message, code: .invalidInput) }
    static func runtime(_ message: String) -> CommandFailure { CommandFailure(message: message, code: .runtimeFailure) }
}
