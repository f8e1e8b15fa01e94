import KernelIO
import Runtime

/// Maps the first word to a command; every failure ends as a message on stderr and an exit code,
/// one rule for all: 2 for usage or invalid input (nothing was done), 1 for a runtime failure
/// (such as an output that cannot be written), 0 for success.
enum CommandDispatcher {
    struct Command {
        let name: String
        /// One line for `backdrop --help`'s list.
        let summary: String
        let help: String
        let body: ([String]) throws(CommandFailure) -> Void
    }

    /// Every command, in the order `backdrop --help` lists them: the list is printed from here, so
    /// it cannot name a command the binary lacks or miss one it has.
    /// `runtime` reaches `run` only: the other commands never start the booth's loop.
    static func commands(_ runtime: RuntimeOptions = RuntimeOptions()) -> [Command] { [
        Command(name: "demo", summary: "synthetic scene -> composited video file, with latency statistics",
                help: HelpText.demo, body: DemoCommand.run),
        Command(name: "render", summary: "composite a recording offline into PNG frames",
                help: HelpText.render, body: RenderCommand.run),
        Command(name: "looks", summary: "list the looks, or draw them all on one frame (--sheet)",
                help: HelpText.looks, body: LooksCommand.run),
        Command(name: "check-config", summary: "validate a config file exactly as the device will",
                help: HelpText.checkConfig, body: CheckConfigCommand.run),
        Command(name: "bench", summary: "per-stage ns/pixel, the ratio to memcpy, and frames per second per case",
                help: HelpText.bench, body: BenchCommand.run),
        Command(name: "run", summary: "the appliance loop (source and sink chosen by the config)",
                help: HelpText.run,
                body: { (arguments) throws(CommandFailure) in try RunCommand.run(arguments, runtime: runtime) }),
        Command(name: "make-backdrops", summary: "write the project's own backdrops as PNG (or JPEG) files",
                help: HelpText.makeBackdrops, body: MakeBackdropsCommand.run),
        Command(name: "eval", summary: "score the matte of a recording against truth masks",
                help: HelpText.eval, body: EvalCommand.run),
        Command(name: "record", summary: "write a recording (colour, depth, recording.ini) from the source or a test scene",
                help: HelpText.record, body: RecordCommand.run),
        Command(name: "render-message", summary: "draw an on-screen message alone as PNG, and say where it lies",
                help: HelpText.renderMessage, body: RenderMessageCommand.run),
        Command(name: "import", summary: "take a USB stick's config and backdrops into a new generation",
                help: HelpText.importStick, body: ImportCommand.run),
        Command(name: "rollback", summary: "make the previous generation current again",
                help: HelpText.rollback, body: RollbackCommand.run),
        Command(name: "export-photos", summary: "copy the photos taken since the last export onto a stick",
                help: HelpText.exportPhotos, body: ExportPhotosCommand.run),
        Command(name: "stick-released", summary: "tell the booth's screen that the unmounted stick can be pulled",
                help: HelpText.stickReleased, body: StickReleasedCommand.run),
        Command(name: "cameras", summary: "the cameras found, their nodes' roles, and the calibration the box would use",
                help: CamerasCommand.help, body: CamerasCommand.run),
    ] }

    static var overview: String {
        let width = commands().map { $0.name.count }.max() ?? 0
        var lines = commands().map { "  " + $0.name + String(repeating: " ", count: width + 2 - $0.name.count) + $0.summary }
        lines.insert(HelpText.overviewHead, at: 0)
        lines.append(HelpText.overviewTail)
        return lines.joined(separator: "\n")
    }

    static func run(_ arguments: [String], runtime: RuntimeOptions) -> ExitCode {
        let commands = Self.commands(runtime)
        guard let word = arguments.first else {
            StandardOutput.line(overview)
            return .invalidInput
        }
        let rest = Array(arguments.dropFirst())
        if word == "--version" || word == "version" {
            StandardOutput.line(BuildInfo.line)
            return .success
        }
        if word == "--help" || word == "-h" || word == "help" {
            // `backdrop help COMMAND` is that command's help, as `backdrop COMMAND --help` is.
            if let name = rest.first {
                guard let command = commands.first(where: { $0.name == name }) else { return unknown(name) }
                StandardOutput.line(command.help)
                return .success
            }
            StandardOutput.line(overview)
            return .success
        }
        guard let command = commands.first(where: { $0.name == word }) else { return unknown(word) }
        if rest.contains("--help") || rest.contains("-h") {
            StandardOutput.line(command.help)
            return .success
        }
        do throws(CommandFailure) {
            try command.body(rest)
            return .success
        } catch {
            if error.isNote {
                Log.info("\(word): \(error.message)")
                return error.code
            }
            Log.error("\(word): \(error.message)")
            if error.code == .invalidInput { Log.info("see backdrop \(word) --help") }
            return error.code
        }
    }

    private static func unknown(_ word: String) -> ExitCode {
        Log.error("unknown command \(TerminalText.escaped(word)); see backdrop --help")
        return .invalidInput
    }
}
