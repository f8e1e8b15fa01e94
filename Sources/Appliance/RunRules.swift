import Runtime
import CKernel
import Settings

/// What `run` refuses in a config whose keys are each valid: the combinations this build cannot
/// serve. One list, asked by `run` before it opens anything and by `check-config`, so a config
/// check-config passes is never refused by run for a reason check-config could have seen.
enum RunRules {
    /// Every reason `settings` cannot run, worded as the fix; empty when it can.
    static func problems(_ settings: Settings) -> [String] {
        var problems: [String] = []
        let source = settings.camera.source
        let sink = settings.output.sink
        if source != .v4l2 && sink == .kms {
            problems.append("[output] sink = kms needs [camera] source = v4l2 in this build (source is \(source.name)); "
                            + "use sink = file or null")
        }
        if source == .v4l2 && sink != .kms {
            problems.append("[camera] source = v4l2 needs [output] sink = kms in this build (sink is \(sink.name))")
        }
        if source == .recording {
            if let path = settings.camera.recording {
                if bk_is_directory(path) != 1 {
                    problems.append("[camera] recording = \(path): no such folder (a recording has color/, depth/, recording.ini)")
                }
            } else {
                problems.append("[camera] source = recording needs [camera] recording, the folder to play")
            }
        }
        if sink == .file {
            // The file sink never writes onto, into or around what the run reads.
            let output = ResolvedPath(settings.output.path ?? "out/run.y4m")
            var read = [("[background] directory", settings.background.directory)]
            if source == .recording, let recording = settings.camera.recording { read.append(("[camera] recording", recording)) }
            for (key, path) in read {
                let input = ResolvedPath(path)
                if output.isWithin(input) || input.isWithin(output) {
                    problems.append("[output] path = \(settings.output.path ?? "out/run.y4m") is, holds or lies inside "
                                    + "\(key) = \(path); choose a path outside what the run reads")
                }
            }
        }
        return problems
    }

    /// A config for every source and sink combination (and a recording key set to a folder that is
    /// not there, and unset), for a test that holds `run` and `check-config` to one verdict each.
    /// File sinks write to a relative path, so the test chooses where.
    static var samples: [(name: String, text: String)] {
        var samples: [(name: String, text: String)] = []
        for source in CameraSettings.Source.allCases {
            for sink in OutputSettings.Sink.allCases {
                let recordings: [String?] = source == .recording ? ["run-rules-missing-recording", nil] : [nil]
                for recording in recordings {
                    var text = "[camera]\nsource = \(source.name)\nwidth = 64\nheight = 48\n"
                    if let recording { text += "recording = \(recording)\n" }
                    text += "[output]\nsink = \(sink.name)\nwidth = 64\nheight = 48\n"
                    if sink == .file { text += "path = run-rules-\(source.name).y4m\n" }
                    let name = "\(source.name)-\(sink.name)" + (source == .recording ? (recording == nil ? "-unset" : "-missing") : "")
                    samples.append((name, text))
                }
            }
        }
        return samples
    }
}
