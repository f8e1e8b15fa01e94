import Import
import KernelIO
import Runtime

/// `backdrop import STICK_ROOT [--data DIR] [--config FILE]`: the stick's config and backdrops
/// into a new generation of the data folder (the contract is at `StickImport`). One line per
/// item on stdout; the exit status is the outcome's, and the outcome in a few words is left for the
/// booth's screen in DIR/import-outcome (`ImportNotice`).
enum ImportCommand {
    /// The stick's files read so far, on the progress line. `afterRead` must be Sendable, but it
    /// is called only on the thread running `StickImport.run` (its contract), which is this
    /// command's one thread: nothing here is touched from two threads.
    final class FilesRead: @unchecked Sendable {
        private let line: ProgressLine
        private var files = 0
        init(_ line: ProgressLine) { self.line = line }
        func count() {
            files += 1
            line.update(done: files, unit: "files read")
        }
        func finish() { line.finish() }
    }

    static func run(_ arguments: [String]) throws(CommandFailure) {
        let options = try CommandOptions.parse(arguments, valued: ["--data", "--config"], flags: ["--quiet"])
        let stick = try options.positionals(1, names: "STICK_ROOT (the root of the mounted stick)")[0]
        var request = StickImport.Options(stick: stick)
        if let data = options.value("--data") { request.data = data }
        if let config = options.value("--config") { request.baseConfig = config }
        // SIGTERM (the unit stopped: its stick went away) or SIGINT is answered between files, so
        // the outcome file still says what happened and the staging folder is removed.
        do throws(SystemError) {
            try StopRequest.hold()
            request.stopRequested = { StopRequest.pending }
        } catch {
            Log.warning("a stop signal ends the import wherever it lands: \(error.message)")
        }
        let progress = FilesRead(ProgressLine("import", total: 0, quiet: options.has("--quiet")))
        request.afterRead = { _ in progress.count() }
        let report = StickImport.run(request)
        progress.finish()
        // The same stick again writes nothing: its parts are the current generation's, not "taken".
        let unchanged: Bool
        if case .unchanged = report.outcome { unchanged = true } else { unchanged = false }
        for line in report.lines {
            StandardOutput.line(unchanged && line.kind == .taken ? "already current: " + line.text : line.rendered)
        }
        // The booth's screen learns the outcome from this file (the unit signals it after every import).
        do throws(SystemError) {
            _ = try ImportNotice.write(report.screenText, status: report.outcome.exitStatus, data: request.data)
        } catch {
            Log.warning("the booth's screen is not told the outcome: \(error.message)")
        }
        switch report.outcome {
        case .newGeneration, .photosCopied:
            return
        case .unchanged(let generation):
            throw .nothingChanged("the stick holds what generation \(generation) holds; it stays current, nothing was written")
        case .nothingUsable:
            throw .invalidInput("nothing usable on the stick at \(stick); the box keeps what it has")
        case .failed(let reason):
            throw .runtime(reason + "; the current generation is unchanged")
        }
    }
}
