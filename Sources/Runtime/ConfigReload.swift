import KernelIO
import Settings

/// SIGHUP: a valid file replaces the settings that apply live ([matte], [background] through the
/// rescan on the box, [photos] countdown_s); an invalid one is reported and changes nothing (the
/// previous settings stay).
enum ConfigReload {
    /// The new settings, or nil (said why) when the file is refused.
    static func load(_ path: String, current: Settings) -> Settings? {
        switch ConfigFile.parse(path) {
        case .success(let settings):
            if settings.output != current.output || settings.camera != current.camera || settings.pipeline != current.pipeline
                || settings.photos.directory != current.photos.directory || settings.photos.keepLayers != current.photos.keepLayers {
                Log.warning("config reloaded: [matte] applied; [camera], [output], [pipeline] and [photos] directory and "
                            + "keep_layers changes apply on restart")
            } else {
                Log.info("config reloaded from \(path)")
            }
            return settings
        case .failure(let failure):
            Log.error("config reload refused, keeping the previous settings: \(failure.message)")
            return nil
        }
    }
}
