import Backgrounds
import Frames
import KernelIO
import Settings

/// Which backdrops a command shows: the configured folder when it has images, else the built-in
/// one, so the box always shows something. Skipped files are logged with their reason.
enum BackdropChoice {
    static func library(settings: Settings, outputSize: FrameSize) -> BackgroundLibrary {
        let (library, warnings) = BackgroundLibrary.load(directory: settings.background.directory,
                                                         outputSize: outputSize, fit: settings.background.fit)
        for warning in warnings { Log.warning(warning) }
        return library
    }
}
