import KernelIO

/// The box's data folder (`/var/lib/backdrop` by default), a contract other tools rely on:
///
///     DIR/generations/000007/backdrop.conf     one whole generation: config and backdrops
///     DIR/generations/000007/backgrounds/*.png
///     DIR/current  -> generations/000007       what the service runs with
///     DIR/previous -> generations/000006       what `backdrop rollback` goes back to
///
/// A generation folder is never changed once it has its number: it is built under
/// `generations/.staging-N`, every file and folder fsynced, then renamed to `N`. `current` and
/// `previous` are symlinks switched by rename (`DirectoryDescriptor.switchSymlink`), so after a
/// power cut at any point `current` names a whole generation, old or new. Generations neither link
/// names are removed after each switch, and leftovers of an interrupted import at the next one.
/// Numbers count up (the box has no clock to trust for names).
///
/// One owner of the two folder descriptors. Not thread-safe; one import or rollback at a time
/// (the import unit is a oneshot; a second `backdrop import` at once is not supported).
public struct DataFolder: ~Copyable {
    public static let defaultPath = "/var/lib/backdrop"
    static let generationsName = "generations"
    static let currentName = "current"
    static let previousName = "previous"
    static let stagingPrefix = ".staging-"

    let root: DirectoryDescriptor
    let generations: DirectoryDescriptor

    /// Opens DIR, creating it (its parent must exist) and `generations/` when missing: an empty or
    /// missing data folder is initialised here.
    public static func open(_ given: String) throws(SystemError) -> DataFolder {
        var path = given
        while path.utf8.count > 1 && path.hasSuffix("/") { path.removeLast() }
        let parent = DurablePath.split(path)
        let parentFolder = try DirectoryDescriptor.open(parent.folder)
        if try parentFolder.statusIfPresent(parent.name) == nil {
            try parentFolder.makeDirectory(parent.name)
            try parentFolder.sync()
        }
        let root = try DirectoryDescriptor.open(path)
        if try root.statusIfPresent(generationsName) == nil {
            try root.makeDirectory(generationsName)
            try root.sync()
        }
        let generations = try root.openDirectory(generationsName)
        return DataFolder(root: root, generations: generations)
    }

    public var path: String { root.path }

    /// The generation `current` names ("000007"), or nil before the first import.
    public func current() throws(SystemError) -> String? { try generation(linkedBy: Self.currentName) }
    public func previous() throws(SystemError) -> String? { try generation(linkedBy: Self.previousName) }

    private func generation(linkedBy link: String) throws(SystemError) -> String? {
        guard let target = try root.symlinkTarget(link) else { return nil }
        let prefix = Self.generationsName + "/"
        guard target.hasPrefix(prefix) else { return nil }
        let name = String(target.dropFirst(prefix.count))
        guard Self.isGenerationName(name), try generations.statusIfPresent(name)?.kind == .directory else { return nil }
        return name
    }

    static func isGenerationName(_ name: String) -> Bool {
        name.utf8.count == 6 && name.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// The number after every generation present (also unreferenced ones, so a number is never
    /// reused for different content).
    func nextGenerationName() throws(SystemError) -> String {
        var highest = 0
        for name in try generations.entries().names {
            let digits = name.hasPrefix(Self.stagingPrefix) ? String(name.dropFirst(Self.stagingPrefix.count)) : name
            if Self.isGenerationName(digits), let number = Int(digits) { highest = max(highest, number) }
        }
        var text = String(highest + 1)
        while text.utf8.count < 6 { text = "0" + text }
        return text
    }

    /// Opens a whole generation for reading (the current one for the import's comparison).
    func openGeneration(_ name: String) throws(SystemError) -> DirectoryDescriptor {
        try generations.openDirectory(name)
    }

    /// Makes `name` (a whole, fsynced generation) current and the old current previous. The order
    /// matters for a power cut: `previous` moves first, so at every moment `current` is the old or
    /// the new generation and both links name whole ones.
    func makeCurrent(_ name: String) throws(SystemError) {
        if let old = try current(), old != name {
            try root.switchSymlink(Self.previousName, to: Self.generationsName + "/" + old)
        }
        try root.switchSymlink(Self.currentName, to: Self.generationsName + "/" + name)
    }

    /// Swaps `current` and `previous`; false when there is no previous generation.
    public func rollback() throws(SystemError) -> (from: String, to: String)? {
        guard let now = try current(), let before = try previous(), now != before else { return nil }
        // previous first: a cut between the two switches leaves current unchanged and whole.
        try root.switchSymlink(Self.previousName, to: Self.generationsName + "/" + now)
        try root.switchSymlink(Self.currentName, to: Self.generationsName + "/" + before)
        try prune()
        return (now, before)
    }

    /// Removes what neither link names: older generations and staging folders left by an import
    /// that was interrupted. Only removes; a failure here leaves extra folders, never a broken link.
    func prune() throws(SystemError) {
        let keep = [try current(), try previous()]
        for name in try generations.entries().names where !keep.contains(name) {
            try generations.removeTree(name)
        }
        try generations.sync()
    }
}
