import Backgrounds
import KernelIO
import Settings

/// `backdrop check-config FILE [--backgrounds DIR]`: the same validation the device runs.
enum CheckConfigCommand {
    static func run(_ arguments: [String]) throws(CommandFailure) {
        let options = try CommandOptions.parse(arguments, valued: ["--backgrounds"], flags: [])
        let path = try options.positionals(1, names: "FILE (the config to check)")[0]
        let settings = try ConfigFile.load(path)
        var summary = "\(path): ok"
        if let directory = options.value("--backgrounds") {
            let (library, problems) = BackgroundLibrary.load(directory: directory, outputSize: settings.output.size,
                                                             fit: settings.background.fit)
            if !problems.isEmpty {
                var message = "\(directory): \(problems.count) backdrop"
                    + (problems.count == 1 ? "" : "s") + " would be skipped:"
                for problem in problems { message += "\n  " + problem }
                throw .invalidInput(message)
            }
            summary += "; \(library.count) backdrops in \(directory) load"
        }
        StandardOutput.line(summary)
    }
}
