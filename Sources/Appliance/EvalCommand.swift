import Frames
import ImageCodec
import KernelIO
import Matte
import Pipeline
import Runtime
import Scenes
import Settings

/// `backdrop eval RECORDING --truth DIR [--config FILE] [--json]`: runs the matte over a
/// recording exactly as render does (same registration, same engine) and scores it against truth
/// masks (8-bit grey PNGs named like the frames): IoU mean and minimum, boundary F (2 px),
/// flicker over still truth and lag (see MatteEvaluation).
enum EvalCommand {
    static func run(_ arguments: [String]) throws(CommandFailure) {
        let options = try CommandOptions.parse(arguments, valued: ["--truth", "--config", "--matte-out", "--report"],
                                               flags: ["--json", "--force", "--quiet"])
        let recordingPath = try options.positionals(1, names: "RECORDING (a folder with color/, depth/, recording.ini)")[0]
        guard let truthDirectory = options.value("--truth") else { throw .invalidInput("missing --truth DIR") }
        Interruption.hold()  // before the matte's worker threads start, so they inherit it
        let matteDirectory = options.value("--matte-out")
        var inputs = [OutputDirectory.Role("RECORDING", recordingPath), OutputDirectory.Role("--truth", truthDirectory)]
        if let path = options.value("--config") { inputs.append(OutputDirectory.Role("--config", path)) }
        let reportDirectory = options.value("--report")
        var outputs: [OutputDirectory.Role] = []
        if let matteDirectory { outputs.append(OutputDirectory.Role("--matte-out", matteDirectory)) }
        if let reportDirectory { outputs.append(OutputDirectory.Role("--report", reportDirectory)) }
        try OutputDirectory.checkApart(outputs: outputs, inputs: inputs)
        var settings = Settings.defaults
        if let path = options.value("--config") { settings = try ConfigFile.load(path) }
        let recording = try RecordingInput.open(recordingPath)
        let assembly = PipelineAssembly(settings.pipeline)
        let camera = DepthRegistration.camera(settings.camera, recordingRegistered: recording.registered,
                                              recordingIntrinsics: recording.intrinsics, depthSize: recording.depthSize)
        let processor = try assembly.makeProcessor(
            colorFormat: .rgb24, colorSize: recording.colorSize, depthSize: recording.depthSize,
            outputSize: recording.colorSize, fit: settings.background.fit, matte: settings.matte,
            projection: DepthRegistration.projection(camera: camera, depthSize: recording.depthSize,
                                                     colorSize: recording.colorSize))
        defer { processor.stop() }
        let color = try FrameMemory.buffer(.rgb24, recording.colorSize)
        let depth = try FrameMemory.buffer(.z16, recording.depthSize)
        let truth = try FrameMemory.buffer(.alpha8, recording.colorSize)
        let decoder = ImageDecoder()
        let evaluation = try FrameMemory.allocating("scoring \(recording.colorSize.description) mattes") {
            () throws(SystemError) in try MatteEvaluation(size: recording.colorSize)
        }
        if let matteDirectory {
            try OutputDirectory.prepare(matteDirectory, for: "eval", force: options.has("--force"), option: "--matte-out")
        }
        var report: EvalReport? = nil
        if let reportDirectory {
            try OutputDirectory.prepare(reportDirectory, for: "eval", force: options.has("--force"), option: "--report")
            report = try EvalReport(directory: reportDirectory, colourSize: recording.colorSize)
        }
        let progress = ProgressLine("eval", total: recording.frameCount, quiet: options.has("--quiet") || options.has("--json"))
        var stoppedBy: String? = nil
        for frame in 0..<recording.frameCount {
            if let signal = StopRequest.pending { stoppedBy = signal; break }
            let truthPath = truthDirectory + "/" + recording.frameName(frame)
            do throws(RecordingError) {
                try recording.load(frame: frame, color: color.view, depth: depth.view)
            } catch {
                throw .invalidInput(error.message)
            }
            let header: ImageHeader
            do throws(ImageError) {
                header = try decoder.header(path: truthPath)
            } catch {
                throw .invalidInput("truth for frame \(frame): \(error.message)")
            }
            guard header.isGrey8 && header.size == recording.colorSize else {
                throw .invalidInput("\(truthPath): a truth mask must be an 8-bit grey PNG of the colour size "
                                    + recording.colorSize.description)
            }
            do throws(ImageError) {
                try decoder.decode(path: truthPath, into: truth.view)
            } catch {
                throw .invalidInput("truth for frame \(frame): \(error.message)")
            }
            processor.buildMatte(depth: depth.view, unitMM: recording.unitMM, colour: color.view)
            evaluation.add(alpha: processor.alphaView, truth: truth.view)
            if let report, let iou = evaluation.ious.last {
                report.consider(iou: iou, name: recording.outputName(frame), colour: color.view,
                                alpha: processor.alphaView, truth: truth.view)
            }
            if let matteDirectory {
                do throws(ImageError) {
                    try PNGEncoder.write(processor.alphaView, to: matteDirectory + "/" + recording.outputName(frame))
                } catch {
                    throw .runtime(error.message)
                }
            }
            progress.update(done: frame + 1)
        }
        progress.finish()
        RecordingInput.reportUnpaired(recording)
        if let report {
            let written = try report.write(ious: evaluation.ious)
            Log.info("eval: report in \(report.directory): " + written.map { $0.split(separator: "/").last.map(String.init) ?? $0 }
                        .joined(separator: ", ") + " (missed pixels red, extra yellow)")
        }
        let s = evaluation.summary
        let d = BenchCommand.decimal
        if options.has("--json") {
            StandardOutput.line("{\"recording\": \"\(recordingPath)\", \"frames\": \(s.frames), "
                                + "\"mode\": \"\(settings.matte.mode.name)\", "
                                + "\"iou_mean\": \(d(s.meanIoU)), \"iou_min\": \(d(s.minimumIoU)), "
                                + "\"boundary_f_mean\": \(d(s.meanBoundaryF)), \"boundary_f_min\": \(d(s.minimumBoundaryF)), "
                                + "\"boundary_tolerance_px\": \(MatteEvaluation.boundaryTolerance), "
                                + "\"flicker_levels_per_frame\": \(d(s.flicker)), \"lag_frames\": \(d(s.lagFrames))}")
        } else {
            StandardOutput.line("eval: \(s.frames) frame" + (s.frames == 1 ? "" : "s") + " of \(recordingPath), "
                                + "matte \(settings.matte.mode.name)\n"
                                + "  IoU mean \(d(s.meanIoU)), min \(d(s.minimumIoU))\n"
                                + "  boundary F (\(MatteEvaluation.boundaryTolerance) px) mean \(d(s.meanBoundaryF)), "
                                + "min \(d(s.minimumBoundaryF))\n"
                                + "  flicker \(d(s.flicker)) alpha levels per frame over still truth; "
                                + "lag \(d(s.lagFrames)) frames")
        }
        if let stoppedBy { throw Interruption.stopped(stoppedBy, done: s.frames, of: recording.frameCount) }
    }
}
