import KernelIO

/// Why the buttons could not be set up or read.
public enum ButtonError: Error, Equatable {
    /// No GPIO chip has a line (or chip) of that name.
    case lineNotFound(String)
    /// A libgpiod call failed: what we were doing and the kernel's errno.
    case system(SystemError)
    /// board/<board>/buttons.conf is malformed.
    case invalidBoard(line: Int, String)

    public var message: String {
        switch self {
        case .lineNotFound(let name): return "no GPIO line or chip named '\(name)'"
        case .system(let error): return error.message
        case .invalidBoard(let line, let text): return "buttons.conf:\(line): \(text)"
        }
    }
}
