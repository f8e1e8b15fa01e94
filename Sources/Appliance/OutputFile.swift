import Runtime
/// An output file's kind comes from its name: a name this build cannot write is refused, never
/// silently turned into something else (`--out x.mp4` was a folder of PNGs).
enum OutputFile {
    static func checkExtension(_ path: String, option: String, allowed: [String]) throws(CommandFailure) {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard allowed.contains(where: { name.hasSuffix($0) && name.count > $0.count }) else {
            throw .invalidInput("\(option) \(path): this build writes " + allowed.joined(separator: " or ")
                                + " here; give a name ending so")
        }
    }

    /// The extension of `path`'s last word (".mp4"), or nil when it has none (a folder's name).
    static func fileExtension(_ path: String) -> String? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        return String(name[dot...])
    }
}
