import Import
import KernelIO
import Runtime

/// `backdrop rollback [--data DIR]`: the previous generation becomes current again (and the one
/// that was current becomes previous, so a second rollback undoes the first).
enum RollbackCommand {
    static func run(_ arguments: [String]) throws(CommandFailure) {
        let options = try CommandOptions.parse(arguments, valued: ["--data"], flags: [])
        _ = try options.positionals(0, names: "")
        let path = options.value("--data") ?? DataFolder.defaultPath
        let switched: (from: String, to: String)?
        do throws(SystemError) {
            let data = try DataFolder.open(path)
            switched = try data.rollback()
        } catch {
            throw .runtime("cannot roll back \(path): \(error.message)")
        }
        guard let switched else {
            throw .invalidInput("\(path) has no previous generation to go back to; nothing changed")
        }
        StandardOutput.line("generation \(switched.to) is current again (was \(switched.from))")
    }
}
