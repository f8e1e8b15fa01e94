import KernelIO
import Settings

/// Reads and validates a config file for a command. Warnings are logged; problems fail the
/// command with every one of them listed, and nothing of the file is applied.
public enum ConfigFile {
    public static func load(_ path: String) throws(CommandFailure) -> Settings {
        switch parse(path) {
        case .success(let settings): return settings
        case .failure(let problems): throw problems
        }
    }

    /// For reloads: the caller keeps its current settings when this fails.
    public static func parse(_ path: String) -> Result<Settings, CommandFailure> {
        let text: String
        do throws(SystemError) {
            text = try WholeFile.text(path)
        } catch {
            return .failure(.invalidInput("cannot read config \(error.message); check the path"))
        }
        let result = Settings.parse(text, fileName: path)
        for warning in result.warnings { Log.warning(warning) }
        guard let settings = result.settings else {
            var message = "\(path) is not valid (\(result.problems.count) problem"
                + (result.problems.count == 1 ? "" : "s") + "); nothing in it was applied:"
            for problem in result.problems { message += "\n  " + problem }
            return .failure(.invalidInput(message))
        }
        return .success(settings)
    }
}
