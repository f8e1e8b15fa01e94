import Backgrounds
import Frames
import KernelIO
import Settings

/// Which backdrops a command shows: the configured folder when it has images, else the built-in
/// one, so the box always shows something. Skipped files are logged with their reason.
public enum BackdropChoice {
    public static func library(settings: Settings, outputSize: FrameSize) throws(CommandFailure) -> BackgroundLibrary {
        let (library, warnings) = try FrameMemory.allocating("the backdrops at \(outputSize.description)") { () throws(SystemError) in
            try BackgroundLibrary.load(directory: settings.background.directory, outputSize: outputSize,
                                       fit: settings.background.fit)
        }
        for warning in warnings { Log.warning(warning) }
        return library
    }
}
