import CKernel
import KernelIO

/// One file could not be read: a skipped line for the file's own problems, an abort of the whole
/// import when the stick itself is failing or gone: an I/O error, no device, or (`on: .stick`) a
/// file listed a moment ago that is no longer there. Then nothing read from the stick can be
/// trusted to be the whole stick, so nothing of it is taken (no half set becomes current).
enum StickFailure {
    static func skipOrAbort(_ refusal: StickFile.Refusal, label: String, limits: ImportLimits, on side: ImportAbort.Side = .stick,
                            into report: inout ImportReport) throws(ImportAbort) {
        switch refusal {
        case .wrongKind(let kind):
            report.skipped("\(label): \(kind), not a file")
        case .tooLarge(let size):
            report.skipped("\(label): \(size) bytes, over the limit of \(ByteCount.text(limits.fileBytesFor(label))) (not read)")
        case .changedWhileRead:
            report.skipped("\(label): changed while it was read")
        case .unreadable(let error):
            let code = error.errno.code
            if code == Int32(BK_EIO) || code == Int32(BK_ENODEV) || code == Int32(BK_ENXIO) {
                throw ImportAbort(message: "the stick stopped answering while reading \(label) (\(error.errno.description)); "
                    + "was it unplugged?", screen: "STICK REMOVED OR FAILING")
            }
            if side == .stick && (code == Int32(BK_ENOENT) || code == Int32(BK_ENOTDIR)) {
                throw ImportAbort(message: "\(label) went away during the import (\(error.errno.description)); "
                    + "was the stick unplugged?", screen: "STICK REMOVED OR FAILING")
            }
            report.skipped("\(label): cannot read: \(error.errno.description)")
        }
    }
}

extension ImportLimits {
    /// The byte limit that applied to the file named in `label`.
    func fileBytesFor(_ label: String) -> Int {
        label.hasSuffix(StickImport.stickConfig) ? configBytes : fileBytes
    }
}

/// Byte counts for people: "32 MiB", "64 KiB", "512 bytes".
enum ByteCount {
    static func text(_ bytes: Int) -> String {
        if bytes >= 1 << 20 && bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10 && bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }
}
