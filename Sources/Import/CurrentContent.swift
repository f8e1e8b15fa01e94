import KernelIO

/// What the current generation holds, for the import to keep parts of it (hard links) and to tell
/// whether a stick brings anything new. Empty before the first import. Holds paths, not
/// descriptors: the generation is the box's own folder, reopened for each use.
struct CurrentContent {
    /// The generation's folder, nil before the first import.
    let path: String?
    let config: [UInt8]?
    /// Backdrop names, sorted.
    let backdropNames: [String]

    init(_ name: String?, in data: borrowing DataFolder, configLimit: Int) throws(SystemError) {
        guard let name else {
            path = nil
            config = nil
            backdropNames = []
            return
        }
        let path = data.generations.path + "/" + name
        let generation = try DirectoryDescriptor.open(path)
        config = try Self.read(GenerationLayout.config, in: generation, limit: configLimit)
        let backgrounds = try generation.openDirectory(GenerationLayout.backgrounds)
        backdropNames = try backgrounds.entries().names.filter { !$0.hasPrefix(".") }.sorted()
        self.path = path
    }

    var exists: Bool { path != nil }
    var backgroundsPath: String? { path.map { $0 + "/" + GenerationLayout.backgrounds } }

    /// True when the current set has `name` with exactly these bytes.
    func hasBackdrop(_ name: String, equalTo bytes: [UInt8]) throws(SystemError) -> Bool {
        guard let backgroundsPath, backdropNames.contains(name) else { return false }
        let backgrounds = try DirectoryDescriptor.open(backgroundsPath)
        guard let status = try backgrounds.statusIfPresent(name), status.kind == .regular,
              status.size == Int64(bytes.count) else { return false }
        return try Self.read(name, in: backgrounds, limit: bytes.count) == bytes
    }

    private static func read(_ name: String, in folder: borrowing DirectoryDescriptor, limit: Int) throws(SystemError) -> [UInt8] {
        do throws(StickFile.Refusal) { return try StickFile.read(name, in: folder, limit: limit) } catch {
            switch error {
            case .unreadable(let failure): throw failure
            default: throw SystemError("read \(folder.path)/\(name): not the file the import wrote", .invalidArgument)
            }
        }
    }
}
