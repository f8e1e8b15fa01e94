import CKernel
import Import
import KernelIO
import Runtime

/// `backdrop export-photos STICK_ROOT [--data DIR] [--photos DIR]`: the photos taken since the
/// last export onto the stick's `backdrop/photos/` (see `PhotoExport`). The import unit runs it
/// after remounting the stick read-write, only when that folder exists. The outcome in a few words
/// is left for the booth's screen in DIR/export-outcome (`ImportNotice`, step `exporting`).
enum ExportPhotosCommand {
    static func run(_ arguments: [String]) throws(CommandFailure) {
        let options = try CommandOptions.parse(arguments, valued: ["--data", "--photos"], flags: [])
        let stick = try options.positionals(1, names: "STICK_ROOT (the root of the mounted stick)")[0]
        var request = PhotoExport.Options(stick: stick)
        if let data = options.value("--data") { request.data = data }
        request.photos = options.value("--photos")
        // A mistyped folder is not "no photos taken yet": say it is not there.
        if let photos = request.photos, bk_is_directory(photos) != 1 {
            throw .invalidInput("--photos \(photos): no such folder (the box keeps its photos in [photos] directory)")
        }
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
        // The unit signals the booth after the export. A stick that did not ask for photos (no
        // backdrop/photos/, exit 2) gets no notice: the import's outcome stays the screen's news.
        if !report.screenText.isEmpty {
            do throws(SystemError) {
                _ = try ImportNotice.write(report.screenText, status: report.outcome.exitStatus, data: request.data, step: .exporting)
            } catch {
                Log.warning("the booth's screen is not told the export's outcome: \(error.message)")
            }
        }
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
