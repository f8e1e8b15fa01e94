/// The exit codes other tools rely on (DESIGN.md "Contracts").
public enum ExitCode: Int32, Sendable {
    case success = 0
    case runtimeFailure = 1
    case invalidInput = 2
}
