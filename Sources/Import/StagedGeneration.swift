import KernelIO

/// A generation being built under `generations/.staging-N`: invisible to the service until
/// `seal` renames it to `N`. Every file goes in durably (`DurableFile`), or as a hard link to the
/// identical file of the current generation (no copy, and how the import tells that a stick brings
/// nothing new). Dropped without `seal` (a full disk, an unplugged stick), the staging folder is
/// removed and nothing else has changed.
struct StagedGeneration: ~Copyable {
    let name: String
    private let stagingName: String
    let folder: DirectoryDescriptor
    let backgrounds: DirectoryDescriptor
    private let parentPath: String
    private var sealed = false

    init(in data: borrowing DataFolder) throws(SystemError) {
        // Every step that can fail comes before the first stored property is set (noncopyable
        // properties must be set all or none); a folder left by a failure here is pruned later.
        let name = try data.nextGenerationName()
        let stagingName = DataFolder.stagingPrefix + name
        try data.generations.makeDirectory(stagingName)
        let folder = try data.generations.openDirectory(stagingName)
        try folder.makeDirectory(GenerationLayout.backgrounds)
        let backgrounds = try folder.openDirectory(GenerationLayout.backgrounds)
        self.name = name
        self.stagingName = stagingName
        parentPath = data.generations.path
        self.folder = consume folder
        self.backgrounds = consume backgrounds
    }

    func writeConfig(_ bytes: [UInt8]) throws(SystemError) {
        try DurableFile.write(bytes, as: GenerationLayout.config, in: folder)
    }

    func linkConfig(fromGeneration path: String) throws(SystemError) {
        let generation = try DirectoryDescriptor.open(path)
        try folder.link(GenerationLayout.config, to: GenerationLayout.config, in: generation)
    }

    func writeBackdrop(_ name: String, _ bytes: [UInt8]) throws(SystemError) {
        try DurableFile.write(bytes, as: name, in: backgrounds)
    }

    /// Links every name from the backgrounds folder at `path` (the current generation's).
    func linkBackdrops(_ names: [String], from path: String) throws(SystemError) {
        let source = try DirectoryDescriptor.open(path)
        for name in names { try backgrounds.link(name, to: name, in: source) }
    }

    /// fsync both folders of the generation, rename it to its number, fsync `generations/`.
    /// After this the generation is whole on disk and may be made current.
    consuming func seal(in data: borrowing DataFolder) throws(SystemError) -> String {
        try backgrounds.sync()
        try folder.sync()
        try data.generations.rename(stagingName, to: name)
        sealed = true
        try data.generations.sync()
        return name
    }

    deinit {
        guard !sealed else { return }
        // Best effort: a leftover is also removed by the next import's prune.
        do throws(SystemError) {
            let parent = try DirectoryDescriptor.open(parentPath)
            try parent.removeTree(stagingName)
        } catch {}
    }
}

/// Names inside one generation (the contract in `DataFolder`).
public enum GenerationLayout {
    public static let config = "backdrop.conf"
    public static let backgrounds = "backgrounds"
}
