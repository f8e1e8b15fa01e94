import Runtime
import Frames
import KernelIO
import Scenes

/// A recording opened for a command: errors become bad input (exit 2), and what the command will
/// do differently from pixel for pixel (depth stretched as recording.ini states) is said up front.
/// Frames left out for want of a partner are said once, at the end (`reportUnpaired`).
enum RecordingInput {
    static func open(_ path: String) throws(CommandFailure) -> Recording {
        let recording: Recording
        do throws(RecordingError) { recording = try Recording.open(path) } catch { throw .invalidInput(error.message) }
        for warning in recording.settings.warnings { Log.warning("\(path)/recording.ini: \(warning)") }
        if recording.depthResampled {
            Log.info("depth: \(recording.depthSize.description) resampled to the colour's \(recording.colorSize.description), "
                     + "as recording.ini states")
        }
        return recording
    }

    static func reportUnpaired(_ recording: Recording) {
        if let summary = recording.unpairedSummary { Log.warning(summary) }
    }
}
