import CKernel
import KernelIO

/// The photo export's outcome in a few words for the booth's screen (`ImportNotice`, step
/// `exporting`), in the import's style: upper case for the message font, what happened first,
/// then what it means for the person holding the stick. The export never deletes a photo from
/// the box, so every failure says the photos are kept there; once some were copied it says how
/// many are on the stick and how many go next time instead.
public enum PhotoExportText {
    /// Why an export ended early, as the screen says it.
    public enum Reason: Equatable, Sendable {
        case stickFull
        case stickReadOnly
        /// An I/O error, no device, or the folder gone from under the export: pulled or failing.
        case stickGone
        case stickError
        case boxFull
        case boxError

        var words: String {
            switch self {
            case .stickFull: return "STICK FULL"
            case .stickReadOnly: return "STICK IS READ-ONLY"
            case .stickGone: return "STICK REMOVED OR FAILING"
            case .stickError: return "CANNOT WRITE TO THE STICK"
            case .boxFull: return "BOX DISK FULL"
            case .boxError: return "DISK ERROR ON THE BOX"
            }
        }

        /// The reason for a kernel error on the stick's side or the box's (`side`).
        static func of(_ error: SystemError, on side: ImportAbort.Side) -> Reason {
            let code = error.errno.code
            if code == Int32(BK_ENOSPC) || code == Int32(BK_EDQUOT) { return side == .stick ? .stickFull : .boxFull }
            guard side == .stick else { return .boxError }
            if code == Int32(BK_EROFS) { return .stickReadOnly }
            if code == Int32(BK_EIO) || code == Int32(BK_ENODEV) || code == Int32(BK_ENXIO)
                || code == Int32(BK_ENOENT) || code == Int32(BK_ENOTDIR) { return .stickGone }
            return .stickError
        }
    }

    /// Nothing waiting (every photo already exported, or none taken yet).
    public static let nothingNew = "NO NEW PHOTOS TO COPY"

    /// "37 PHOTOS COPIED", "12 PHOTOS COPIED, 1 SKIPPED, MORE NEXT TIME" (`more`: the export's
    /// photo limit was reached).
    public static func copied(_ count: Int, skipped: Int, more: Bool) -> String {
        if count == 0 && skipped == 0 && !more { return nothingNew }
        var parts = [count == 0 ? "NO PHOTOS COPIED" : "\(count) PHOTO\(count == 1 ? "" : "S") COPIED"]
        if skipped > 0 { parts.append("\(skipped) SKIPPED") }
        if more { parts.append("MORE NEXT TIME") }
        return parts.joined(separator: ", ")
    }

    /// "PHOTOS NOT COPIED: STICK FULL - PHOTOS KEPT ON THE BOX", or once some are on the stick
    /// "STICK FULL: 12 PHOTOS COPIED, 25 NEXT TIME". `left`: the photos not copied, the one in
    /// hand included.
    public static func failed(_ reason: Reason, copied: Int, left: Int) -> String {
        guard copied > 0 else { return "PHOTOS NOT COPIED: " + reason.words + " - PHOTOS KEPT ON THE BOX" }
        return reason.words + ": \(copied) PHOTO\(copied == 1 ? "" : "S") COPIED, \(left) NEXT TIME"
    }

    /// A stop (the unit stopped: the stick was pulled) between photos.
    public static func stopped(copied: Int, left: Int) -> String {
        "PHOTOS STOPPED: \(copied) COPIED, \(left) NEXT TIME"
    }
}
