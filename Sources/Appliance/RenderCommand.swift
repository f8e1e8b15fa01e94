import Backgrounds
import Frames
import ImageCodec
import KernelIO
import Matte
import Pipeline
import Scenes
import Settings
import Sinks

/// `backdrop render RECORDING --background IMAGE --out DIR`: composites a recording offline,
/// one frame after another, writing the same numbered PNGs the recording uses.
enum RenderCommand {
    static func run(_ arguments: [String]) throws(CommandFailure) {
        let options = try CommandOptions.parse(arguments, valued: ["--background", "--out", "--matte-out", "--config", "--size"],
                                               flags: ["--force"])
        let recordingPath = try options.positionals(1, names: "RECORDING (a folder with color/, depth/, recording.ini)")[0]
        guard let backgroundPath = options.value("--background") else { throw .invalidInput("missing --background IMAGE") }
        guard let outDirectory = options.value("--out") else { throw .invalidInput("missing --out DIR") }
        let matteDirectory = options.value("--matte-out")
        var outputs = [OutputDirectory.Role("--out", outDirectory)]
        if let matteDirectory { outputs.append(OutputDirectory.Role("--matte-out", matteDirectory)) }
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
        let color = try FrameMemory.buffer(.rgb24, recording.colorSize)
        let depth = try FrameMemory.buffer(.z16, recording.depthSize)
        let output = try FrameMemory.buffer(.xrgb8888, outputSize)
        for frame in 0..<recording.frameCount {
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
        }
        RecordingInput.reportUnpaired(recording)
        StandardOutput.line("render: \(recording.frameCount) frame" + (recording.frameCount == 1 ? "" : "s")
                            + " of \(recordingPath) composited to \(outDirectory)")
    }
}
