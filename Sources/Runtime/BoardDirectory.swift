import CKernel
import KernelIO

/// Where board facts (board/<name>/...) are: `override` ($BACKDROP_BOARD_DIR, see RuntimeOptions),
/// the installed copy, or the source tree when run from a checkout.
enum BoardDirectory {
    static func path(board: String, file: String, override: String?) -> String? {
        var roots: [String] = []
        if let override { roots.append(override) }
        roots.append("/usr/share/backdrop/board")
        roots.append("board")
        for root in roots {
            let candidate = root + "/" + board + "/" + file
            if bk_file_size(candidate) >= 0 { return candidate }
        }
        return nil
    }
}
