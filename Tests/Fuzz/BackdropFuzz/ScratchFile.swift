import CFuzzDriver
import CKernel
import KernelIO

/// The file a harness writes its input into when the entry point under test reads a path (libinih
/// and the image decoder's file buffer do); one per process, so parallel fuzzing jobs never share,
/// in /dev/shm because a disk write per input would cost more than the parsing under test.
struct ScratchFile {
    let directory: String
    let path: String

    init(target: FuzzTarget, name: String) {
        directory = "/dev/shm/backdrop-fuzz-\(target.rawValue)-\(bk_fuzz_pid())"
        _ = bk_mkdir(directory, 0o700)
        path = directory + "/" + name
    }

    func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        do throws(SystemError) {
            let file = try FileDescriptor.createTruncating(path)
            try file.writeAll(bytes)
            return true
        } catch {
            return false
        }
    }
}
