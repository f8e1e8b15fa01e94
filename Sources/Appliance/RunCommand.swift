import Backgrounds
import Scenes
import Frames
import KernelIO
import Pipeline
import Runtime
import Scenes
import Settings
import Sinks

/// `backdrop run`: the appliance loop. Source and sink come from the config; signals stop it
/// (TERM, INT), reload the config (HUP) and print statistics (USR1).
enum RunCommand {
    static let defaultConfigPath = "/etc/backdrop/backdrop.conf"

    static func run(_ arguments: [String], runtime: RuntimeOptions) throws(CommandFailure) {
        let options = try CommandOptions.parse(arguments, valued: ["--config", "--frames"], flags: [])
        _ = try options.positionals(0, names: "")
        let frames = try options.integer("--frames", default: 0, range: 0...100_000_000)
        let configPath = options.value("--config") ?? defaultConfigPath
        let settings: Settings
        if options.value("--config") == nil && isMissing(configPath) {
            Log.info("no config at \(configPath); using the defaults (see config/backdrop.conf)")
            settings = .defaults
        } else {
            settings = try ConfigFile.load(configPath)
        }
        let refusals = RunRules.problems(settings)
        guard refusals.isEmpty else {
            throw .invalidInput("\(configPath) cannot run: " + refusals.joined(separator: "; ")
                                + " (backdrop check-config says the same)")
        }
        let signals = try openSignals()
        let assembly = PipelineAssembly(settings.pipeline)
        let backdrops = try BackdropChoice.library(settings: settings, outputSize: settings.output.size)
        Log.info(backdrops.usesBuiltInDefault ? "backdrops: the built-in gradient (no usable image in \(settings.background.directory))"
                 : "backdrops: \(backdrops.count) from \(settings.background.directory)")

        switch settings.camera.source {
        case .synthetic:
            let size = settings.camera.size
            let feed = try FrameMemory.allocating("the \(size.description) synthetic camera's frames") { () throws(SystemError) in
                try SyntheticSource(seed: 1, colorFormat: .yuyv, colorSize: size, depthSize: size, frameLimit: nil, paced: true)
            }
            let sink = try makeSink(settings: settings, frameRate: feed.frameRate)
            // The synthetic scene renders registered depth whatever the config says of the cameras.
            var synthetic = settings
            synthetic.camera.registered = true
            try serve(feed: feed, sink: sink, settings: synthetic, configPath: configPath, assembly: assembly,
                      backdrops: backdrops, signals: signals, frames: frames)
        case .recording:
            guard let path = settings.camera.recording else { throw .invalidInput("[camera] recording is not set") }
            let recording = try RecordingInput.open(path)
            RecordingInput.reportUnpaired(recording)
            let feed = try FrameMemory.allocating("the recording's \(recording.colorSize.description) frames") { () throws(SystemError) in
                try RecordingSource(recording: recording, paced: true, loops: true)
            }
            let sink = try makeSink(settings: settings, frameRate: feed.frameRate)
            var played = settings
            played.camera = DepthRegistration.camera(settings.camera, recordingRegistered: recording.registered,
                                                     recordingIntrinsics: recording.intrinsics,
                                                     depthSize: recording.depthSize)
            try serve(feed: feed, sink: sink, settings: played, configPath: configPath, assembly: assembly,
                      backdrops: backdrops, signals: signals, frames: frames)
        case .v4l2:
            try DeviceRun.run(settings: settings, configPath: configPath, assembly: assembly, backdrops: backdrops,
                              signals: signals, frames: frames, options: runtime)
        }
    }

    private static func isMissing(_ path: String) -> Bool {
        do throws(SystemError) { _ = try FileDescriptor.openForReading(path); return false } catch { return true }
    }

    static func openSignals() throws(CommandFailure) -> SignalChannel {
        do throws(SystemError) { return try SignalChannel() } catch { throw .runtime(error.message) }
    }

    /// The sink `[output] sink` names (display sinks are handled by DeviceRun).
    static func makeSink(settings: Settings, frameRate: Int) throws(CommandFailure) -> AnySinkChoice {
        let size = settings.output.size
        switch settings.output.sink {
        case .null:
            return .null(try FrameMemory.allocating("the \(size.description) output frames") { () throws(SystemError) in
                try NullSink(outputSize: size)
            })
        case .file:
            let path = settings.output.path ?? "out/run.y4m"
            if path.hasSuffix(".y4m") {
                let sink: Y4MFileSink
                do throws(SystemError) {
                    sink = try Y4MFileSink(path: path, outputSize: size, frameRate: frameRate)
                } catch {
                    if error.errno == .outOfMemory { throw .runtime("not enough memory for the \(size.description) output frames: \(error.message)") }
                    throw .runtime("cannot write \(path): \(error.errno.description)")
                }
                return .y4m(sink)
            } else {
                try OutputDirectory.create(path)
                return .png(try FrameMemory.allocating("the \(size.description) output frames") { () throws(SystemError) in
                    try PNGSequenceSink(directory: path, outputSize: size)
                })
            }
        case .kms:
            throw .invalidInput("[output] sink = kms needs [camera] source = v4l2 in this build; use sink = file or null")
        }
    }

    static func serve<Source: FrameSource & ~Copyable>(feed: consuming Source, sink: AnySinkChoice, settings: Settings, configPath: String,
                                           assembly: PipelineAssembly, backdrops: BackgroundLibrary,
                                           signals: borrowing SignalChannel, frames: Int) throws(CommandFailure) {
        switch sink {
        case .null(let sink):
            try LiveRun.run(feed: feed, sink: sink, settings: settings, configPath: configPath, assembly: assembly,
                            backdrops: backdrops, signals: signals, frames: frames)
        case .y4m(let sink):
            try LiveRun.run(feed: feed, sink: sink, settings: settings, configPath: configPath, assembly: assembly,
                            backdrops: backdrops, signals: signals, frames: frames)
        case .png(let sink):
            try LiveRun.run(feed: feed, sink: sink, settings: settings, configPath: configPath, assembly: assembly,
                            backdrops: backdrops, signals: signals, frames: frames)
        }
    }
}
