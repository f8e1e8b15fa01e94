import CKernel
import KernelIO
import Runtime
import Scenes

/// Where a command writes, checked before anything is written: never onto, into or around what it
/// reads or another of its outputs, and never into a folder of someone else's files.
///
/// A folder a command made holds a marker (`.backdrop-output`, naming the command), so running the
/// command again replaces its own earlier output instead of mixing old frames with new ones; any
/// other non-empty folder is refused unless `--force`, which empties it first.
enum OutputDirectory {
    static let markerName = ".backdrop-output"

    /// A named path: "--out DIR" or "RECORDING", as the user wrote it, for messages.
    struct Role {
        let name: String
        let path: String
        init(_ name: String, _ path: String) { self.name = name; self.path = path }
    }

    /// Refuses an output that is, contains or lies inside an input or another output.
    static func checkApart(outputs: [Role], inputs: [Role]) throws(CommandFailure) {
        let resolvedInputs = inputs.map { ResolvedPath($0.path) }
        let resolvedOutputs = outputs.map { ResolvedPath($0.path) }
        for (index, output) in outputs.enumerated() {
            let place = resolvedOutputs[index]
            for (other, input) in inputs.enumerated() {
                let read = resolvedInputs[other]
                if let relation = relation(place, read) {
                    throw .invalidInput("\(output.name) \(output.path) \(relation) the input \(input.name) \(input.path) "
                                        + "(\(read.text)); nothing was written: choose an output outside what is read")
                }
            }
            for other in (index + 1)..<max(index + 1, outputs.count) {
                if let relation = relation(place, resolvedOutputs[other]) {
                    throw .invalidInput("\(output.name) \(output.path) \(relation) \(outputs[other].name) "
                                        + "\(outputs[other].path); nothing was written: give each output a place of its own")
                }
            }
        }
    }

    private static func relation(_ output: ResolvedPath, _ other: ResolvedPath) -> String? {
        if output == other { return "is" }
        if output.isWithin(other) { return "lies inside" }
        if other.isWithin(output) { return "contains" }
        return nil
    }

    /// Makes `path` ready for `command`'s output: created with its parents when missing, its own
    /// earlier output emptied, anything else non-empty refused unless `force` (then emptied).
    static func prepare(_ path: String, for command: String, force: Bool, option: String) throws(CommandFailure) {
        let kind = bk_is_directory(path)
        if kind == 0 { throw .invalidInput("\(option) \(path) is a file, not a folder") }
        if kind == 1 {
            let names: [String]
            do throws(SystemError) { names = try DirectoryListing.names(in: path) } catch {
                throw .runtime("cannot read the output folder \(path): \(error.errno.description)")
            }
            if !names.isEmpty {
                let own = names.contains(markerName) && markerCommand(path) == command
                guard own || force else {
                    let sample = names.filter { $0 != markerName }.sorted().first ?? names[0]
                    throw .invalidInput("\(option) \(path) already holds \(names.count) entr" + (names.count == 1 ? "y" : "ies")
                                        + " (e.g. \(TerminalText.escaped(sample))) that backdrop \(command) did not write; "
                                        + "nothing was written: give an empty or new folder, or add --force to empty it first")
                }
                try empty(path)
            }
        } else {
            try create(path)
        }
        do throws(RecordingError) {
            try RecordingWriter.writeText("backdrop \(command)\n", to: path + "/" + markerName)
        } catch {
            throw .runtime("cannot write into \(path): \(error.message)")
        }
    }

    /// Makes a folder (and its parents) without the output rules: for folders inside an output
    /// already prepared.
    static func create(_ path: String) throws(CommandFailure) {
        var partial = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            partial += "/" + component
            if bk_is_directory(partial) == 1 { continue }
            if bk_mkdir(partial, 0o755) != 0 && Errno.current != Errno(Int32(BK_EEXIST)) {
                throw .runtime("cannot create \(path): \(Errno.current.description)")
            }
        }
    }

    private static func markerCommand(_ path: String) -> String? {
        do throws(SystemError) {
            let text = try WholeFile.text(path + "/" + markerName)
            let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
            return words.count == 2 && words[0] == "backdrop" ? String(words[1]) : nil
        } catch {
            return nil
        }
    }

    /// Removes everything below `path`, never following a symlink (a link is removed, not its target).
    private static func empty(_ path: String) throws(CommandFailure) {
        let names: [String]
        do throws(SystemError) { names = try DirectoryListing.names(in: path) } catch {
            throw .runtime("cannot empty \(path): \(error.errno.description)")
        }
        for name in names {
            let child = path + "/" + name
            var kind: Int32 = 0
            var size: Int64 = 0
            var allocated: Int64 = 0
            let isFolder = bk_stat_at_nofollow(bk_at_cwd(), child, &kind, &size, &allocated) == 0
                && kind == Int32(BK_KIND_DIRECTORY)
            if isFolder { try empty(child) }
            if bk_unlink_at(bk_at_cwd(), child, isFolder ? 1 : 0) != 0 {
                throw .runtime("cannot empty \(path): removing \(TerminalText.escaped(name)): \(Errno.current.description)")
            }
        }
    }
}
