import KernelIO

/// Maps the first word to a command; every failure ends as a message on stderr and an exit code.
enum CommandDispatcher {
    static func run(_ arguments: [String]) -> ExitCode {
        guard let command = arguments.first else {
            StandardOutput.line(HelpText.overview)
            return .invalidInput
        }
        let rest = Array(arguments.dropFirst())
        if command == "--help" || command == "-h" || command == "help" {
            StandardOutput.line(HelpText.overview)
            return .success
        }
        let help: String
        let body: ([String]) throws(CommandFailure) -> Void
        switch command {
        case "demo": help = HelpText.demo; body = DemoCommand.run
        case "render": help = HelpText.render; body = RenderCommand.run
        case "check-config": help = HelpText.checkConfig; body = CheckConfigCommand.run
        case "bench": help = HelpText.bench; body = BenchCommand.run
        case "run": help = HelpText.run; body = RunCommand.run
        case "make-backdrops": help = HelpText.makeBackdrops; body = MakeBackdropsCommand.run
        case "eval": help = HelpText.eval; body = EvalCommand.run
        case "record": help = HelpText.record; body = RecordCommand.run
        case "render-message": help = HelpText.renderMessage; body = RenderMessageCommand.run
        case "import": help = HelpText.importStick; body = ImportCommand.run
        case "rollback": help = HelpText.rollback; body = RollbackCommand.run
        case "export-photos": help = HelpText.exportPhotos; body = ExportPhotosCommand.run
        case "stick-released": help = HelpText.stickReleased; body = StickReleasedCommand.run
        case "cameras": help = CamerasCommand.help; body = CamerasCommand.run
        default:
            Log.error("unknown command \(command); see backdrop --help")
            return .invalidInput
        }
        if rest.contains("--help") || rest.contains("-h") {
            StandardOutput.line(help)
            return .success
        }
        do throws(CommandFailure) {
            try body(rest)
            return .success
        } catch {
            if error.isNote {
                Log.info("\(command): \(error.message)")
                return error.code
            }
            Log.error("\(command): \(error.message)")
            if error.code == .invalidInput { Log.info("see backdrop \(command) --help") }
            return error.code
        }
    }
}
