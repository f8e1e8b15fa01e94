import Backgrounds
import Frames
import KernelIO
import Runtime
import Settings

/// `backdrop check-config FILE [--backgrounds DIR]`: the same validation the device runs.
enum CheckConfigCommand {
    static func run(_ arguments: [String]) throws(CommandFailure) {
        let options = try CommandOptions.parse(arguments, valued: ["--backgrounds"], flags: [])
        let path = try options.positionals(1, names: "FILE (the config to check)")[0]
        let settings = try ConfigFile.load(path)
        var summary = "\(path): ok"
        if let directory = options.value("--backgrounds") {
            let report = try FrameMemory.allocating("the backdrops at \(settings.output.size.description)") { () throws(SystemError) in
                try BackgroundLibrary.loadReporting(directory: directory, outputSize: settings.output.size,
                                                    fit: settings.background.fit)
            }
            if !report.skipped.isEmpty || !report.notices.isEmpty {
                var lines: [String] = []
                if !report.skipped.isEmpty {
                    lines.append("\(directory): \(backdrops(report.skipped.count)) would be skipped:")
                    lines += report.skipped.map { "  " + $0 }
                }
                lines += report.notices
                throw .invalidInput(lines.joined(separator: "\n"))
            }
            summary += "; \(backdrops(report.library.count)) in \(directory) load"
        }
        StandardOutput.line(summary)
    }

    private static func backdrops(_ count: Int) -> String { count == 1 ? "1 backdrop" : "\(count) backdrops" }
}
