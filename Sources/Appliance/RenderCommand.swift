import Backgrounds
import Frames
import ImageCodec
import KernelIO
import Looks
import Matte
import Pipeline
import Scenes
import Settings
import Sinks

/// `backdrop render RECORDING --background IMAGE --out DIR`: composites a recording offline,
/// one frame after another, writing the same numbered PNGs the recording uses.
enum RenderCommand {
    static func run(_ arguments: [String]) throws(CommandFailure) {
        let options = try CommandOptions.parse(arguments, valued: ["--background", "--out", "--matte-out", "--config", "--size", "--look"],
                                               flags: [])
        let recordingPath = try options.positionals(1, names: "RECORDING (a folder with color/, depth/, recording.ini)")[0]
        guard let backgroundPath = options.value("--background") else { throw .invalidInput("missing --background IMAGE") }
        guard let outDirectory = options.value("--out") else { throw .invalidInput("missing --out DIR") }
        var settings = Settings.defaults
        if let path = options.value("--config") { settings = try ConfigFile.load(path) }

        let recording: Recording
        do throws(RecordingError) {
            recording = try Recording.open(recordingPath)
        } catch {
            throw .invalidInput(error.message)
        }
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
        try OutputDirectory.create(outDirectory)
        let matteDirectory = options.value("--matte-out")
        if let matteDirectory { try OutputDirectory.create(matteDirectory) }

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
        for frame in 0..<recording.frameCount {
            do throws(RecordingError) {
                try recording.load(frame: frame, color: color.view, depth: depth.view)
            } catch {
                throw .invalidInput(error.message)
            }
            processor.buildMatte(depth: depth.view, unitMM: recording.unitMM, colour: color.view)
            processor.compose(camera: color.view, background: background.view, into: output.view)
            do throws(ImageError) {
                try PNGEncoder.write(output.view, to: PNGSequenceSink.framePath(directory: outDirectory, index: frame))
                if let matteDirectory {
                    try PNGEncoder.write(processor.alphaView, to: PNGSequenceSink.framePath(directory: matteDirectory, index: frame))
                }
            } catch {
                throw .runtime(error.message)
            }
        }
        StandardOutput.line("render: \(recording.frameCount) frame" + (recording.frameCount == 1 ? "" : "s")
                            + " of \(recordingPath) composited to \(outDirectory)")
    }
}
