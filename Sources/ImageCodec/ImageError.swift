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

    public var message: String {
        switch self {
        case .unreadable(let path, let reason):
            return "\(path): cannot read: \(reason)"
        case .corrupt(let path, let detail):
            return "\(path): corrupt or truncated image: \(detail)"
        case .unsupportedFormat(let path, let detail):
            return "\(path): unsupported format: \(detail)"
        case .tooLarge(let path, let width, let height):
            return "\(path): image is \(width)x\(height), larger than the limit of "
                + "\(ImageDecoder.maximumSide) per side and \(ImageDecoder.maximumPixels) pixels"
        case .mismatch(let path, let detail):
            return "\(path): \(detail)"
        case .writeFailed(let path, let reason):
            return "\(path): cannot write image: \(reason)"
        }
    }
}
