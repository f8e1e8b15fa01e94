import Import
import KernelIO

/// `backdrop export-photos STICK_ROOT [--data DIR] [--photos DIR]`: the photos taken since the
/// last export onto the stick's `backdrop/photos/` (see `PhotoExport`). The import unit runs it
/// after remounting the stick read-write, only when that folder exists.
enum ExportPhotosCommand {
    static func run(_ arguments: [String]) throws(CommandFailure) {
        let options = try CommandOptions.parse(arguments, valued: ["--data", "--photos"], flags: [])
        let stick = try options.positionals(1, names: "STICK_ROOT (the root of the mounted stick)")[0]
        var request = PhotoExport.Options(stick: stick)
        if let data = options.value("--data") { request.data = data }
        request.photos = options.value("--photos")
        // SIGTERM (the unit stopped: its stick went away) or SIGINT is answered between photos and
        // before a photo's fsync, so no temporary is left on the stick and the outcome says how far
        // it got; killed wherever the signal lands, a `.NAME.partial` could stay on the stick.
        do throws(SystemError) {
            try StopRequest.hold()
            request.stopRequested = { StopRequest.pending }
        } catch {
            Log.warning("a stop signal ends the photo export wherever it lands: \(error.message)")
        }
        let report = PhotoExport.run(request)
        for line in report.lines { StandardOutput.line(line.rendered) }
        switch report.outcome {
        case .newGeneration, .unchanged, .photosCopied:
            return
        case .nothingUsable:
            throw .invalidInput("no photos copied to \(stick)")
        case .failed(let reason):
            throw .runtime(reason)
        }
    }
}
