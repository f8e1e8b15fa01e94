import Frames
import KernelIO
import Runtime
import Scenes
import Settings

/// `backdrop record OUT [--frames N] [--config FILE] [--scene NAME] [--size WxH]`: writes the
/// recording layout (colour PNG, 16-bit depth PNG, recording.ini with the unit, registration and
/// intrinsics in force) from the configured source, or one of the hard test scenes with their
/// truth masks (OUT/truth, for `backdrop eval`).
enum RecordCommand {
    static let scenes = ["group", "group-still", "group-unregistered"]

    static func run(_ arguments: [String]) throws(CommandFailure) {
        let options = try CommandOptions.parse(arguments, valued: ["--frames", "--config", "--scene", "--size"], flags: ["--force", "--quiet"])
        let out = try options.positionals(1, names: "OUT (the recording folder to write)")[0]
        let frames = try options.integer("--frames", default: 30, range: 1...100_000)
        let force = options.has("--force")
        let quiet = options.has("--quiet")
        if let scene = options.value("--scene") {
            guard scenes.contains(scene) else {
                throw .invalidInput("unknown scene \(scene); known: " + scenes.joined(separator: ", "))
            }
            try prepare(out, inputs: [], force: force)
            try recordScene(scene, size: try options.size("--size") ?? FrameSize(width: 320, height: 240),
                            frames: frames, out: out, quiet: quiet)
            return
        }
        var settings = Settings.defaults
        var inputs: [OutputDirectory.Role] = []
        if let path = options.value("--config") {
            settings = try ConfigFile.load(path)
            inputs.append(OutputDirectory.Role("--config", path))
        }
        if settings.camera.source == .recording, let path = settings.camera.recording {
            inputs.append(OutputDirectory.Role("the config's [camera] recording", path))
        }
        try prepare(out, inputs: inputs, force: force)
        switch settings.camera.source {
        case .synthetic:
            let size = try options.size("--size") ?? settings.camera.size
            let scene = try FrameMemory.allocating("the \(size.description) synthetic scene") { () throws(SystemError) in
                try SyntheticScene.allocating(colourSize: size)
            }
            try write(frames: frames, out: out, colourSize: size, depthSize: size,
                      settings: recordingSettings(registered: true, intrinsics: scene.depthCamera,
                                                  unitMM: 1, frameRate: scene.frameRate), quiet: quiet) { frame, colour, depth, truth in
                scene.render(frame: frame, color: colour, depth: depth, truth: truth)
            }
        case .recording:
            guard let path = settings.camera.recording else { throw .invalidInput("[camera] recording is not set") }
            let recording = try RecordingInput.open(path)
            RecordingInput.reportUnpaired(recording)
            var failure: RecordingError? = nil
            try write(frames: min(frames, recording.frameCount), out: out, colourSize: recording.colorSize,
                      depthSize: recording.depthSize, truth: false, settings: recording.settings, quiet: quiet) { frame, colour, depth, _ in
                do throws(RecordingError) { try recording.load(frame: frame, color: colour, depth: depth) } catch { failure = error }
            }
            if let failure { throw .invalidInput(failure.message) }
        case .v4l2:
            try LiveRecording.record(camera: settings.camera, frames: frames, out: out)
        }
    }

    /// OUT must not touch what is read, and is emptied of an earlier recording (or, with --force,
    /// of anything) so no stale frame, truth mask or camera.conf survives into the new recording.
    static func prepare(_ out: String, inputs: [OutputDirectory.Role], force: Bool) throws(CommandFailure) {
        try OutputDirectory.checkApart(outputs: [OutputDirectory.Role("OUT", out)], inputs: inputs)
        try OutputDirectory.prepare(out, for: "record", force: force, option: "OUT")
    }

    static func recordScene(_ name: String, size: FrameSize, frames: Int, out: String, quiet: Bool) throws(CommandFailure) {
        guard scenes.contains(name) else {
            throw .invalidInput("unknown scene \(name); known: " + scenes.joined(separator: ", "))
        }
        let scene = name == "group-unregistered" ? GroupScene.unregistered(colourSize: size) : GroupScene(colourSize: size)
        scene.moving = name != "group-still"
        try write(frames: frames, out: out, colourSize: scene.colourSize, depthSize: scene.depthSize,
                  settings: recordingSettings(registered: scene.registered, intrinsics: scene.depthCamera,
                                              unitMM: 1, frameRate: scene.frameRate), quiet: quiet) { frame, colour, depth, truth in
            scene.render(frame: frame, color: colour, depth: depth, truth: truth)
        }
        if !scene.registered {
            // The colour camera and the offset are the camera's facts, which belong in the config.
            let k = scene.colourCamera
            let conf = "[camera]\nsource = recording\nrecording = \(out)\n"
                + "width = \(scene.colourSize.width)\nheight = \(scene.colourSize.height)\n"
                + "color_fx = \(RecordingWriter.decimal(k.fx))\ncolor_fy = \(RecordingWriter.decimal(k.fy))\n"
                + "color_cx = \(RecordingWriter.decimal(k.cx))\ncolor_cy = \(RecordingWriter.decimal(k.cy))\n"
                + "tx_mm = \(Int(scene.colourOffsetMM.x))\nty_mm = \(Int(scene.colourOffsetMM.y))\n"
                + "tz_mm = \(Int(scene.colourOffsetMM.z))\n"
            do throws(RecordingError) { try RecordingWriter.writeText(conf, to: out + "/camera.conf") } catch {
                throw .runtime(error.message)
            }
            StandardOutput.line("record: depth is not registered; the colour camera is in \(out)/camera.conf "
                                + "(use it as --config for render, eval and run)")
        }
    }

    static func recordingSettings(registered: Bool, intrinsics: PinholeIntrinsics?, unitMM: Float,
                                  frameRate: Int) -> RecordingSettings {
        var settings = RecordingSettings()
        settings.registered = registered
        settings.intrinsics = intrinsics
        settings.unitMM = unitMM
        settings.frameRate = frameRate
        return settings
    }

    /// Writes `frames` frames that `fill` draws into RGB24 colour, Z16 depth and (with `truth`) a mask.
    static func write(frames: Int, out: String, colourSize: FrameSize, depthSize: FrameSize, truth: Bool = true,
                      settings: RecordingSettings, quiet: Bool,
                      fill: (Int, ImageView, ImageView, ImageView?) -> Void) throws(CommandFailure) {
        let colour = try FrameMemory.buffer(.rgb24, colourSize)
        let depth = try FrameMemory.buffer(.z16, depthSize)
        let mask = try FrameMemory.buffer(.alpha8, colourSize)
        let progress = ProgressLine("record", total: frames, quiet: quiet)
        // Here, not for a live recording (LiveRecording does not look for a stop); these paths
        // start no thread, so holding here covers the whole write.
        Interruption.hold()
        var stoppedBy: String? = nil
        var done = 0
        do throws(RecordingError) {
            // The depth size is stated: what the recording's depth is, whatever its registration.
            var stated = settings
            stated.depthSize = depthSize
            var writer = try RecordingWriter(path: out, settings: stated, withTruth: truth)
            for frame in 0..<frames {
                if let signal = StopRequest.pending { stoppedBy = signal; break }
                fill(frame, colour.view, depth.view, truth ? mask.view : nil)
                try writer.append(color: colour.view, depth: depth.view, truth: truth ? mask.view : nil)
                done += 1
                progress.update(done: done)
            }
        } catch {
            progress.finish()
            throw .runtime(error.message)
        }
        progress.finish()
        StandardOutput.line("record: \(done) frame" + (done == 1 ? "" : "s") + " to \(out)"
                            + (truth ? " (truth masks in \(out)/truth)" : ""))
        if let stoppedBy { throw Interruption.stopped(stoppedBy, done: done, of: frames) }
    }
}
