import Backgrounds
import Frames
import ImageCodec
import KernelIO
import Looks
import Matte
import Pipeline
import Runtime
import Scenes
import Settings
import Sinks

/// `backdrop render RECORDING --background IMAGE --out DIR`: composites a recording offline,
/// one frame after another, writing the same numbered PNGs the recording uses.
enum RenderCommand {
    static func run(_ arguments: [String]) throws(CommandFailure) {
        let options = try CommandOptions.parse(arguments, valued: ["--background", "--out", "--matte-out", "--config", "--size", "--sheet", "--look"],
                                               flags: ["--force", "--quiet"])
        let recordingPath = try options.positionals(1, names: "RECORDING (a folder with color/, depth/, recording.ini)")[0]
        guard let backgroundPath = options.value("--background") else { throw .invalidInput("missing --background IMAGE") }
        guard let outDirectory = options.value("--out") else { throw .invalidInput("missing --out DIR") }
        Interruption.hold()  // before the matte's worker threads start, so they inherit it
        let matteDirectory = options.value("--matte-out")
        var outputs = [OutputDirectory.Role("--out", outDirectory)]
        if let matteDirectory { outputs.append(OutputDirectory.Role("--matte-out", matteDirectory)) }
        let sheetPath = options.value("--sheet")
        if let sheetPath {
            try OutputFile.checkExtension(sheetPath, option: "--sheet", allowed: [".png"])
            outputs.append(OutputDirectory.Role("--sheet", sheetPath))
        }
        var inputs = [OutputDirectory.Role("RECORDING", recordingPath), OutputDirectory.Role("--background", backgroundPath)]
        if let path = options.value("--config") { inputs.append(OutputDirectory.Role("--config", path)) }
        try OutputDirectory.checkApart(outputs: outputs, inputs: inputs)
        var settings = Settings.defaults
        if let path = options.value("--config") { settings = try ConfigFile.load(path) }

        let recording = try RecordingInput.open(recordingPath)
        let outputSize = try options.size("--size") ?? recording.colorSize
        let background: BackgroundImage
        do throws(ImageError) {
            background = try BackgroundImage.load(path: backgroundPath, name: backgroundPath, outputSize: outputSize,
                                                  fit: settings.background.fit, decoder: ImageDecoder())
        } catch {
            throw .invalidInput("backdrop \(error.message)")
        }
        var look: PreparedLook? = nil
        if let name = options.value("--look") { look = try LookChoice.resolve(name, directory: settings.looks.directory) }
        if let look, look.look.target.backdrop { BackdropFill.apply(look, to: background.view) }
        try OutputDirectory.prepare(outDirectory, for: "render", force: options.has("--force"), option: "--out")
        if let matteDirectory {
            try OutputDirectory.prepare(matteDirectory, for: "render", force: options.has("--force"), option: "--matte-out")
        }

        let assembly = PipelineAssembly(settings.pipeline)
        let processor = try assembly.makeProcessor(colorFormat: .rgb24, colorSize: recording.colorSize,
                                                   depthSize: recording.depthSize, outputSize: outputSize,
                                                   fit: settings.background.fit, matte: settings.matte,
                                                   projection: DepthRegistration.projection(
                                                       camera: DepthRegistration.camera(
                                                           settings.camera, recordingRegistered: recording.registered,
                                                           recordingIntrinsics: recording.intrinsics,
                                                           depthSize: recording.depthSize),
                                                       depthSize: recording.depthSize, colorSize: recording.colorSize))
        defer { processor.stop() }
        processor.peopleLook = look?.peopleColour
        let color = try FrameMemory.buffer(.rgb24, recording.colorSize)
        let depth = try FrameMemory.buffer(.z16, recording.depthSize)
        let output = try FrameMemory.buffer(.xrgb8888, outputSize)
        let sheet = ContactSheet(frameCount: recording.frameCount)
        var canvas: ContactSheet.Canvas? = nil
        if let sheetPath {
            do throws(ImageError) {
                canvas = try ContactSheet.Canvas(outputSize: outputSize, matteSize: processor.alphaView.size, path: sheetPath)
            } catch {
                throw .runtime("cannot make the contact sheet \(sheetPath): \(error.message)")
            }
        }
        let progress = ProgressLine("render", total: recording.frameCount, quiet: options.has("--quiet"))
        var done = 0
        var stoppedBy: String? = nil
        for frame in 0..<recording.frameCount {
            if let signal = StopRequest.pending { stoppedBy = signal; break }
            do throws(RecordingError) {
                try recording.load(frame: frame, color: color.view, depth: depth.view)
            } catch {
                throw .invalidInput(error.message)
            }
            processor.buildMatte(depth: depth.view, unitMM: recording.unitMM, colour: color.view)
            processor.compose(camera: color.view, background: background.view, into: output.view)
            do throws(ImageError) {
                try PNGEncoder.write(output.view, to: outDirectory + "/" + recording.outputName(frame))
                if let matteDirectory {
                    try PNGEncoder.write(processor.alphaView, to: matteDirectory + "/" + recording.outputName(frame))
                }
            } catch {
                throw .runtime(error.message)
            }
            if let canvas, let place = sheet.frameIndices.firstIndex(of: frame) {
                canvas.place(place, composite: output.view, matte: processor.alphaView)
            }
            done += 1
            progress.update(done: done)
        }
        progress.finish()
        if let canvas {
            do throws(ImageError) { try canvas.write() } catch {
                throw .runtime("cannot write the contact sheet \(canvas.path): \(error.message)")
            }
        }
        RecordingInput.reportUnpaired(recording)
        StandardOutput.line("render: \(done) frame" + (done == 1 ? "" : "s")
                            + " of \(recordingPath) composited to \(outDirectory)"
                            + (sheetPath.map { "; contact sheet \($0)" } ?? ""))
        if let stoppedBy { throw Interruption.stopped(stoppedBy, done: done, of: recording.frameCount) }
    }
}
