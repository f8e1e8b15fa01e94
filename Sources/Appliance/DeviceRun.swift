import Backgrounds
import KernelIO
import Settings

/// `source = v4l2`: real cameras and display. Filled in with the device adapters.
enum DeviceRun {
    static func run(settings: Settings, configPath: String, assembly: PipelineAssembly, backdrops: BackgroundLibrary,
                    signals: borrowing SignalChannel, frames: Int) throws(CommandFailure) {
        throw .runtime("[camera] source = v4l2 is not available in this build yet; use source = synthetic or recording")
    }
}
