import Backgrounds
import Runtime
import Scenes
import Frames
import ImageCodec
import KernelIO
import Looks
import Pipeline
import Settings
import Sinks

/// `backdrop demo`: the synthetic scene through the whole pipeline into a video file.
enum DemoCommand {
    static func run(_ arguments: [String]) throws(CommandFailure) {
        let options = try CommandOptions.parse(arguments, valued: ["--frames", "--out", "--size", "--config", "--look"], flags: ["--force", "--quiet"])
        _ = try options.positionals(0, names: "")
        // Held before any thread starts (the backdrops' decoders, the pipeline's workers), so every
        // thread inherits it: Ctrl-C reaches the loop as a pending signal, and the summary and the
        // contact sheet of the frames done still appear.
        Interruption.hold()
        let frames = try options.integer("--frames", default: 300, range: 1...100_000)
        var settings = Settings.defaults
        if let path = options.value("--config") { settings = try ConfigFile.load(path) }
        let outputSize = try options.size("--size") ?? settings.output.size
        let outPath = options.value("--out") ?? "out/demo.y4m"
        // A .y4m video or, without an extension, a folder of PNGs; anything else (x.mp4) is refused,
        // never silently a folder.
        if let suffix = OutputFile.fileExtension(outPath), suffix != ".y4m" {
            throw .invalidInput("--out \(outPath): this build writes a .y4m video, or PNG frames into a folder "
                                + "(a name without an extension); \(suffix) is neither")
        }
        // The camera keeps its own size and shape ([camera] width/height); compose scales it to
        // the output as [background] fit says, as it would a real camera's image.
        let cameraSize = settings.camera.size
        let sheetPath = (outPath.hasSuffix(".y4m") ? String(outPath.dropLast(4)) : outPath) + "-sheet.png"
        var inputs = [OutputDirectory.Role("[background] directory", settings.background.directory)]
        if let path = options.value("--config") { inputs.append(OutputDirectory.Role("--config", path)) }
        try OutputDirectory.checkApart(outputs: [OutputDirectory.Role("--out", outPath), OutputDirectory.Role("the contact sheet", sheetPath)],
                                       inputs: inputs)

        let backdrops = try demoBackdrops(settings: settings, outputSize: outputSize)
        var look: PreparedLook? = nil
        if let name = options.value("--look") {
            look = try LookChoice.resolve(name, directory: settings.looks.directory)
            if look?.look.target.backdrop == true { backdrops.setLook(look) }
        }
        let feed = try FrameMemory.allocating("the \(cameraSize.description) synthetic camera's frames") { () throws(SystemError) in
            try SyntheticSource(seed: 1, colorFormat: .yuyv, colorSize: cameraSize, depthSize: cameraSize,
                                frameLimit: frames, paced: false)
        }
        let assembly = PipelineAssembly(settings.pipeline)
        let processor = try assembly.makeProcessor(colorFormat: .yuyv, colorSize: cameraSize, depthSize: cameraSize,
                                                   outputSize: outputSize, fit: settings.background.fit,
                                                   matte: settings.matte, projection: nil)
        let progress = ProgressLine("demo", total: frames, quiet: options.has("--quiet"))
        let outcome: OfflineRun.Outcome
        if outPath.hasSuffix(".y4m") {
            // --size is even by its parser; a config's [output] size is checked here, for this path.
            guard outputSize.width % 2 == 0 && outputSize.height % 2 == 0 else {
                throw .invalidInput("[output] width = \(outputSize.width), height = \(outputSize.height): a .y4m video "
                    + "stores colour per 2x2 pixels, so both must be even (or give --out a directory for PNGs)")
            }
            // The default out/demo.y4m in a fresh folder: its folder is made, as a PNG folder is.
            if let slash = outPath.lastIndex(of: "/") { try OutputDirectory.create(String(outPath[..<slash])) }
            let sink: Y4MFileSink
            do throws(SystemError) {
                sink = try Y4MFileSink(path: outPath, outputSize: outputSize, frameRate: feed.frameRate)
            } catch {
                if error.errno == .outOfMemory { throw .runtime("not enough memory for the \(outputSize.description) output frames: \(error.message)") }
                throw .runtime("cannot write \(outPath): \(error.errno.description)")
            }
            outcome = try OfflineRun.run(feed: feed, sink: sink, processor: processor, assembly: assembly,
                                         backdrops: backdrops, frames: frames, settings: settings, progress: progress,
                                         peopleLook: look?.peopleColour)
        } else {
            try OutputDirectory.prepare(outPath, for: "demo", force: options.has("--force"), option: "--out")
            let sink = try FrameMemory.allocating("the \(outputSize.description) output frames") { () throws(SystemError) in
                try PNGSequenceSink(directory: outPath, outputSize: outputSize)
            }
            outcome = try OfflineRun.run(feed: feed, sink: sink, processor: processor, assembly: assembly,
                                         backdrops: backdrops, frames: frames, settings: settings, progress: progress,
                                         peopleLook: look?.peopleColour)
        }
        // The scene is deterministic: a second one, through a processor of its own (the run's
        // workers are stopped with it), renders the frames the video shows.
        let sheetProcessor = try assembly.makeProcessor(colorFormat: .yuyv, colorSize: cameraSize, depthSize: cameraSize,
                                                        outputSize: outputSize, fit: settings.background.fit,
                                                        matte: settings.matte, projection: nil)
        defer { sheetProcessor.stop() }
        sheetProcessor.peopleLook = look?.peopleColour
        let sheet = ContactSheet(frameCount: max(1, outcome.frames))
        let sheetScene = try FrameMemory.allocating("the contact sheet's \(cameraSize.description) synthetic scene") { () throws(SystemError) in
            try SyntheticScene.allocating(seed: 1, colourSize: cameraSize, depthSize: cameraSize)
        }
        do throws(ImageError) {
            try sheet.write(to: sheetPath, scene: sheetScene,
                            processor: sheetProcessor, backdrops: backdrops, outputSize: outputSize)
        } catch {
            throw .runtime("cannot write the contact sheet \(sheetPath): \(error.message)")
        }
        StandardOutput.line("demo: wrote \(outcome.frames) frames to \(outPath); contact sheet "
                            + "(\(sheet.frameIndices.count) frames with their mattes): \(sheetPath)")
        if let signal = outcome.stoppedBy { throw Interruption.stopped(signal, done: outcome.frames, of: frames) }
    }

    /// The configured folder's images when it has any; else the project's generated set, so the
    /// first look shows a scene rather than the built-in gradient.
    static func demoBackdrops(settings: Settings, outputSize: FrameSize) throws(CommandFailure) -> BackgroundLibrary {
        let what = "the backdrops at \(outputSize.description)"
        let (library, warnings) = try FrameMemory.allocating(what) { () throws(SystemError) in
            try BackgroundLibrary.load(directory: settings.background.directory, outputSize: outputSize,
                                       fit: settings.background.fit)
        }
        guard library.usesBuiltInDefault else {
            for warning in warnings { Log.warning(warning) }
            return library
        }
        Log.info("backgrounds: no images in \(settings.background.directory); "
                 + "showing the \(GeneratedBackdrop.all.count) generated backdrops")
        return try FrameMemory.allocating(what) { () throws(SystemError) in
            try BackgroundLibrary.generated(outputSize: outputSize, fit: settings.background.fit)
        }
    }
}
