import KernelIO
import Settings

/// What the service runs with: the generation `DIR/current` names, resolved once, so its config
/// and its backdrops come from the same generation even if an import switches `current` between
/// the two reads. Read-only (never creates the data folder). For the running service: resolve on
/// start and on reload (SIGHUP, which the import unit sends), load the settings and the backdrop
/// library from the paths here off the frame path, and hand the result over at a frame boundary.
public struct CurrentGeneration: Equatable, Sendable {
    /// "000007".
    public let name: String
    /// DIR/generations/000007/backdrop.conf
    public let configPath: String
    /// DIR/generations/000007/backgrounds
    public let backgroundsPath: String

    /// The current generation of the data folder at `data`, or nil when there is none yet.
    public static func resolve(data: String) throws(SystemError) -> CurrentGeneration? {
        let root = try DirectoryDescriptor.open(data)
        guard let target = try root.symlinkTarget(DataFolder.currentName) else { return nil }
        let prefix = DataFolder.generationsName + "/"
        guard target.hasPrefix(prefix), DataFolder.isGenerationName(String(target.dropFirst(prefix.count))) else {
            throw SystemError("\(data)/\(DataFolder.currentName) points at \(target), not at a generation", .invalidArgument)
        }
        let folder = data + "/" + target
        return CurrentGeneration(name: String(target.dropFirst(prefix.count)),
                                 configPath: folder + "/" + GenerationLayout.config,
                                 backgroundsPath: folder + "/" + GenerationLayout.backgrounds)
    }

    /// The generation's settings, with `[background] directory` set to its backgrounds folder (a
    /// stick cannot set paths, so the generation's folder is where its backdrops are). Invalid only
    /// if the file was changed by hand: the import stores only configs that parse.
    public func settings() throws(SystemError) -> SettingsParse {
        let text = try WholeFile.text(configPath)
        switch Settings.parse(text, fileName: configPath) {
        case .valid(var settings, let warnings):
            settings.background.directory = backgroundsPath
            return .valid(settings, warnings: warnings)
        case .invalid(let problems, let warnings):
            return .invalid(problems: problems, warnings: warnings)
        }
    }
}
