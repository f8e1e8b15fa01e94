import CKernel
import KernelIO
import Runtime

/// Makes an output folder (and its parents) for frame sequences.
enum OutputDirectory {
    static func create(_ path: String) throws(CommandFailure) {
        var partial = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            partial += "/" + component
            if bk_is_directory(partial) == 1 { continue }
            if bk_mkdir(partial, 0o755) != 0 && Errno.current != Errno(Int32(BK_EEXIST)) {
                throw .invalidInput("cannot create \(path): \(Errno.current.description)")
            }
        }
    }
}
