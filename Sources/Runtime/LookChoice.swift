import KernelIO
import Looks

/// Turns a look's name as a person gives it (`--look`, `[looks] start`/`cycle`) into a prepared
/// look: a built-in look, a look of the looks folder's looks.txt, or a path to a .cube file.
/// Folding happens here, once, off the frame path. Bad input is an invalid-input failure saying
/// what is wrong and what is allowed.
public enum LookChoice {
    public static func resolve(_ text: String, directory: String? = nil) throws(CommandFailure) -> PreparedLook {
        if text.hasSuffix(".cube") {
            let table = try cube(text)
            var name = text
            if let slash = text.lastIndex(of: "/") { name = String(text[text.index(after: slash)...]) }
            return PreparedLook(Look(name: String(name.dropLast(5)), steps: [.cube(table)]))
        }
        if let look = BuiltInLooks.named(text) { return PreparedLook(look) }
        if let directory {
            for look in try folder(directory) where look.name == text { return PreparedLook(look) }
        }
        throw .invalidInput("no look named \(text): the built-in looks are "
                            + BuiltInLooks.names.joined(separator: ", ")
                            + (directory.map { ", with those of \($0)/looks.txt" } ?? "") + "; or give a .cube file")
    }

    /// A .cube file read and checked (CubeParser), or the reason it cannot be used.
    public static func cube(_ path: String) throws(CommandFailure) -> CubeTable {
        let bytes: [UInt8]
        do throws(SystemError) {
            bytes = try WholeFile.bytes(path, limit: CubeParser.maxBytes + 1)
        } catch {
            throw .invalidInput("cannot read \(path): \(error.message)")
        }
        do throws(LookFileError) {
            return try CubeParser.parse(bytes)
        } catch {
            throw .invalidInput("\(path): \(error.description)")
        }
    }

    /// The looks of `directory`/looks.txt with the .cube files beside it; none when the folder or
    /// the file is missing.
    public static func folder(_ directory: String) throws(CommandFailure) -> [Look] {
        let listPath = directory + "/looks.txt"
        guard let names = try? DirectoryListing.names(in: directory), names.contains("looks.txt") else { return [] }
        var cubes: [String: CubeTable] = [:]
        for name in names where name.hasSuffix(".cube") { cubes[name] = try cube(directory + "/" + name) }
        let bytes: [UInt8]
        do throws(SystemError) {
            bytes = try WholeFile.bytes(listPath, limit: LooksFile.maxBytes + 1)
        } catch {
            throw .invalidInput("cannot read \(listPath): \(error.message)")
        }
        do throws(LookFileError) {
            return try LooksFile.parse(bytes, cubes: cubes)
        } catch {
            throw .invalidInput("\(listPath): \(error.description)")
        }
    }
}
