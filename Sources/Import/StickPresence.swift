import KernelIO

/// The stick is still there once everything has been read: `backdrop/` is still a folder at the
/// root of the mount, and `backgrounds/` still in it if it was there at the start. Without this
/// an import whose stick was pulled (or whose folders vanished) after its last read, or between
/// the listing and a file that was then skipped, could take what it had read as the whole stick.
/// A vanished stick makes the import a runtime failure: nothing of it becomes current.
enum StickPresence {
    static func check(root: borrowing DirectoryDescriptor, stick: borrowing DirectoryDescriptor,
                      backgroundsWasFolder: Bool) throws(ImportAbort) {
        let folder = StickImport.stickFolder
        let gone: Bool
        do throws(SystemError) {
            let stillFolder = try root.statusIfPresent(folder)?.kind == .directory
            var backgroundsStill = true
            if backgroundsWasFolder {
                backgroundsStill = try stick.statusIfPresent(StickImport.stickBackgrounds)?.kind == .directory
            }
            gone = !stillFolder || !backgroundsStill
        } catch {
            throw ImportAbort(error, doing: "the stick stopped answering at the end of the import", on: .stick)
        }
        if gone {
            throw ImportAbort(message: "\(folder)/ went away from the stick during the import: was it unplugged?",
                              screen: "STICK REMOVED OR FAILING")
        }
    }
}
