import Frames
import Matte

/// Settings while keys are still arriving: values that only make sense together (intrinsics)
/// wait here until every key is read, then `finish` checks the combinations.
struct SettingsDraft {
    var settings = Settings()
    var depthIntrinsics = IntrinsicsDraft()
    var colorIntrinsics = IntrinsicsDraft()

    /// Problems of keys that are each valid but contradict each other, and warnings about
    /// combinations that work but are probably not meant. `prefix` is "file: ".
    mutating func finish(prefix: String) -> (problems: [String], warnings: [String]) {
        var problems: [String] = []
        var warnings: [String] = []

        let matte = settings.matte
        if matte.nearMM >= matte.farMM {
            problems.append(prefix + "[matte] near_mm = \(matte.nearMM) and far_mm = \(matte.farMM): "
                + "near_mm must be less than far_mm")
        }
        if matte.nearMM >= matte.subjectMaximumMM {
            problems.append(prefix + "[matte] near_mm = \(matte.nearMM) and subject_max_mm = "
                + "\(matte.subjectMaximumMM): near_mm must be less than subject_max_mm")
        }

        checkCamera(prefix: prefix, problems: &problems)

        let output = settings.output
        if output.sink == .file && output.path == nil {
            problems.append(prefix + "[output] sink = file needs path = <file.y4m, or a directory for PNGs>")
        }
        if output.sink == .file, let path = output.path, path.hasSuffix(".y4m"), output.size.width % 2 != 0 || output.size.height % 2 != 0 {
            problems.append(prefix + "[output] width = \(output.size.width), height = \(output.size.height) and "
                + "path = \(path): a .y4m video stores colour per 2x2 pixels, so width and height must be even")
        }

        let buttons = settings.buttons
        let roles = [("next", buttons.next), ("previous", buttons.previous), ("shutter", buttons.shutter)]
        for first in 0..<roles.count {
            guard let line = roles[first].1 else { continue }
            for second in (first + 1)..<roles.count where roles[second].1 == line {
                problems.append(prefix + "[buttons] \(roles[first].0) and \(roles[second].0) both name line "
                    + "\(line): each button needs its own line")
            }
        }
        if buttons.longPressMS <= buttons.debounceMS {
            problems.append(prefix + "[buttons] long_press_ms = \(buttons.longPressMS) and debounce_ms = "
                + "\(buttons.debounceMS): long_press_ms must be more than debounce_ms")
        }

        if !settings.looks.cycle.contains(settings.looks.start) {
            warnings.append(prefix + "[looks] start = \(settings.looks.start) is not in cycle: the look gesture "
                + "will not come back to it")
        }

        let sync = settings.sync
        let periodMS = 1000 / settings.camera.fps
        if sync.toleranceMS > 0 && sync.toleranceMS * 2 > periodMS {
            warnings.append(prefix + "[sync] tolerance_ms = \(sync.toleranceMS) is more than half a frame "
                + "period at \(settings.camera.fps) fps (\(periodMS) ms): a frame may pair with its "
                + "neighbour's partner")
        }
        let pipeline = settings.pipeline
        if !pipeline.realtime && pipeline.realtimePriority != PipelineSettings().realtimePriority {
            warnings.append(prefix + "[pipeline] realtime_priority = \(pipeline.realtimePriority) has no "
                + "effect while realtime = false")
        }
        return (problems, warnings)
    }

    private mutating func checkCamera(prefix: String, problems: inout [String]) {
        let camera = settings.camera
        if camera.source == .recording && camera.recording == nil {
            problems.append(prefix + "[camera] source = recording needs recording = <directory of the recording>")
        }

        // Intrinsics are given as a whole set or not at all; half a set is a typo, not a choice.
        let depthMissing = depthIntrinsics.missing(prefix: "depth_")
        let colorMissing = colorIntrinsics.missing(prefix: "color_")
        if !camera.registered {
            if !depthMissing.isEmpty || !colorMissing.isEmpty {
                problems.append(prefix + "[camera] registered = false needs the depth and colour intrinsics "
                    + "to map depth onto colour; missing: " + Self.list(depthMissing + colorMissing))
            }
        } else {
            if !depthIntrinsics.isEmpty && !depthMissing.isEmpty {
                problems.append(prefix + "[camera] depth intrinsics incomplete; missing: " + Self.list(depthMissing))
            }
            if !colorIntrinsics.isEmpty && !colorMissing.isEmpty {
                problems.append(prefix + "[camera] colour intrinsics incomplete; missing: " + Self.list(colorMissing))
            }
        }
        settings.camera.depthIntrinsics = depthIntrinsics.complete
        settings.camera.colorIntrinsics = colorIntrinsics.complete

        // Chroma is shared by pixel pairs (and NV12 by row pairs too), so odd sizes cannot be captured.
        // MJPEG is decoded into YUYV, and the synthetic scene renders YUYV whatever the format says.
        let format = camera.source == .synthetic ? .yuyv : camera.colorFormat.pixelFormat ?? .yuyv
        if !format.accepts(camera.size) {
            let rule = format == .nv12 ? "an even width and height" : "an even width"
            let why = camera.source == .synthetic ? "the synthetic source renders yuyv, which"
                : camera.colorFormat == .mjpeg ? "mjpeg is decoded into yuyv, which"
                : camera.colorFormat == .auto ? "auto may be yuyv, which" : camera.colorFormat.name
            problems.append(prefix + "[camera] width = \(camera.size.width), height = \(camera.size.height) and "
                + "color_format = \(camera.colorFormat.name): \(why) needs \(rule)")
        }
    }

    private static func list(_ names: [String]) -> String {
        var text = ""
        for name in names { text += text.isEmpty ? name : ", " + name }
        return text
    }
}
