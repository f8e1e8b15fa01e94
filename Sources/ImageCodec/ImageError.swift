import KernelIO

/// Why an image could not be read, decoded or written. Every case names the file so a caller
/// (background loader, recording source, `backdrop render`) can report it without more context.
public enum ImageError: Error, Equatable {
    /// The file is missing or cannot be read; `reason` is the kernel's text.
    case unreadable(path: String, reason: String)
    /// The bytes start like a supported image but the decoder gave up; `detail` is its text.
    case corrupt(path: String, detail: String)
    /// Not PNG or JPEG judging by the first bytes (extensions are not trusted).
    case unsupportedFormat(path: String, detail: String)
    /// The header claims more pixels than the box can hold; refused before allocating.
    case tooLarge(path: String, width: Int, height: Int)
    /// The image is valid but not what the caller asked for (size or sample layout).
    case mismatch(path: String, detail: String)
    /// Encoding or writing failed.
    case writeFailed(path: String, reason: String)
    /// The pixels fit the limits but the memory for them was refused (a small board, a huge image).
    case outOfMemory(path: String, width: Int, height: Int)

    /// The path is escaped in full (newlines too): a file name is one line of a message.
    public var message: String { describe(TerminalText.escaped(path)) }

    public var path: String {
        switch self {
        case .unreadable(let path, _), .corrupt(let path, _), .unsupportedFormat(let path, _),
             .tooLarge(let path, _, _), .mismatch(let path, _), .writeFailed(let path, _), .outOfMemory(let path, _, _):
            return path
        }
    }

    private func describe(_ path: String) -> String {
        switch self {
        case .unreadable(_, let reason):
            return "\(path): cannot read: \(reason)"
        case .corrupt(_, let detail):
            return "\(path): corrupt or truncated image: \(detail)"
        case .unsupportedFormat(_, let detail):
            return "\(path): unsupported format: \(detail)"
        case .tooLarge(_, let width, let height):
            return "\(path): image is \(width)x\(height), larger than the limit of "
                + "\(ImageDecoder.maximumSide) per side and \(ImageDecoder.maximumPixels) pixels"
        case .mismatch(_, let detail):
            return "\(path): \(detail)"
        case .writeFailed(_, let reason):
            return "\(path): cannot write image: \(reason)"
        case .outOfMemory(_, let width, let height):
            return "\(path): not enough memory to decode a \(width)x\(height) image; use a smaller one"
        }
    }
}
