import Backgrounds
import Frames
import Import
import KernelIO
import Runtime
import Settings

/// `backdrop check-config FILE [--stick] [--backgrounds DIR]`: the validation the device runs,
/// whole: the file's keys, what `run` refuses of their combination (`RunRules`), and with
/// `--stick` what an import refuses of a stick's config (its size, path keys). Warnings do not
/// fail the check but are counted in its last line.
enum CheckConfigCommand {
    static func run(_ arguments: [String]) throws(CommandFailure) {
        let options = try CommandOptions.parse(arguments, valued: ["--backgrounds"], flags: ["--stick", "--run-rules"])
        if options.has("--run-rules") {
            _ = try options.positionals(0, names: "")
            for sample in RunRules.samples { StandardOutput.line("# \(sample.name)\n" + sample.text) }
            return
        }
        let path = try options.positionals(1, names: "FILE (the config to check)")[0]
        let stick = options.has("--stick")
        let read = stick
            ? ConfigFile.read(path, limit: ImportLimits.standard.configBytes, limitOwner: "a stick's backdrop.conf")
            : ConfigFile.read(path)
        let settings: Settings
        let warnings: Int
        switch read {
        case .success(let result): settings = result.settings; warnings = result.warnings.count
        case .failure(let failure): throw failure
        }
        var problems = RunRules.problems(settings)
        if stick {
            let bytes: [UInt8]
            do throws(SystemError) { bytes = try WholeFile.bytes(path, limit: ImportLimits.standard.configBytes) } catch {
                throw .invalidInput("cannot read config \(path): \(error.errno.description)")
            }
            if case .refused(let refusals) = StickConfig.judge(bytes, fileName: path) { problems += refusals }
        }
        guard problems.isEmpty else {
            throw .invalidInput("\(path) would be refused (\(problems.count) problem" + (problems.count == 1 ? "" : "s") + "):\n  "
                                + problems.joined(separator: "\n  "))
        }
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
        if warnings > 0 { summary += ", with \(warnings) warning" + (warnings == 1 ? "" : "s") }
        StandardOutput.line(summary)
    }

    private static func backdrops(_ count: Int) -> String { count == 1 ? "1 backdrop" : "\(count) backdrops" }
}
