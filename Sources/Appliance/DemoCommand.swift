import Backgrounds
import Scenes
import Frames
import KernelIO
import Pipeline
import Settings
import Sinks

/// `backdrop demo`: the synthetic scene through the whole pipeline into a video file.
enum DemoCommand {
    static func run(_ arguments: [String]) throws(CommandFailure) {
        let options = try CommandOptions.parse(arguments, valued: ["--frames", "--out", "--size", "--config"], flags: [])
        _ = try options.positionals(0, names: "")
        let frames = try options.integer("--frames", default: 300, range: 1...100_000)
        var settings = Settings.defaults
        if let path = options.value("--config") { settings = try ConfigFile.load(path) }
        let outputSize = try options.size("--size") ?? settings.output.size
        let outPath = options.value("--out") ?? "out/demo.y4m"
        // The camera keeps its own size and shape ([camera] width/height); compose scales it to
        // the output as [background] fit says, as it would a real camera's image.
        let cameraSize = settings.camera.size

        let backdrops = BackdropChoice.library(settings: settings, outputSize: outputSize)
        let feed = SyntheticSource(seed: 1, colorFormat: .yuyv, colorSize: cameraSize, depthSize: cameraSize,
                                 frameLimit: frames, paced: false)
        let assembly = PipelineAssembly(settings.pipeline)
        let processor = try assembly.makeProcessor(colorFormat: .yuyv, colorSize: cameraSize, depthSize: cameraSize,
                                                   outputSize: outputSize, fit: settings.background.fit,
                                                   matte: settings.matte, projection: nil)
        if outPath.hasSuffix(".y4m") {
            let sink: Y4MFileSink
            do throws(SystemError) {
                sink = try Y4MFileSink(path: outPath, outputSize: outputSize, frameRate: feed.frameRate)
            } catch {
                throw .invalidInput("cannot write \(outPath): \(error.errno.description); check that its folder exists")
            }
            try OfflineRun.run(feed: feed, sink: sink, processor: processor, assembly: assembly,
                               backdrops: backdrops, frames: frames, settings: settings)
        } else {
            try OutputDirectory.create(outPath)
            let sink = PNGSequenceSink(directory: outPath, outputSize: outputSize)
            try OfflineRun.run(feed: feed, sink: sink, processor: processor, assembly: assembly,
                               backdrops: backdrops, frames: frames, settings: settings)
        }
        StandardOutput.line("demo: wrote \(frames) frames to \(outPath)")
    }
}
