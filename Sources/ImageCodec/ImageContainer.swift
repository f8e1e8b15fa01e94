/// The file formats Backdrop reads, recognised by their signature bytes rather than the name.
public enum ImageContainer: Equatable, Sendable {
    case png
    case jpeg

    public var name: String {
        switch self {
        case .png: return "PNG"
        case .jpeg: return "JPEG"
        }
    }

    /// nil when the bytes are neither a PNG nor a JPEG signature.
    public static func detect(_ bytes: UnsafeRawBufferPointer) -> ImageContainer? {
        // Compared byte by byte rather than against an array literal: this runs for every
        // recorded frame and must not allocate.
        if bytes.count >= 8, bytes[0] == 0x89, bytes[1] == 0x50, bytes[2] == 0x4E, bytes[3] == 0x47,
           bytes[4] == 0x0D, bytes[5] == 0x0A, bytes[6] == 0x1A, bytes[7] == 0x0A {
            return .png
        }
        if bytes.count >= 3, bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[2] == 0xFF { return .jpeg }
        return nil
    }
}
