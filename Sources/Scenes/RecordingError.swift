import ImageCodec

/// Why a recording could not be opened or a frame of it read. Messages name the recording folder
/// (or file) and say what was expected, so `backdrop render` can print them as they are.
public enum RecordingError: Error, Equatable {
    case missingDirectory(path: String)
    /// `DIR/color` or `DIR/depth` is absent or unreadable.
    case missingStream(path: String, reason: String)
    /// Both streams exist but hold no NNNNNN.png frames.
    case empty(path: String)
    /// No frame number is in both streams.
    case countMismatch(path: String, color: Int, depth: Int)
    /// recording.ini is missing, unreadable, has a syntax error or a bad value.
    case badSettings(path: String, detail: String)
    /// A frame file is an image of the wrong kind for its stream (e.g. 8-bit depth).
    case badFrame(path: String, detail: String)
    case frameOutOfRange(frame: Int, count: Int)
    case image(ImageError)
    /// A recording (or its folder) could not be written.
    case cannotWrite(path: String, reason: String)

    public var message: String {
        switch self {
        case .missingDirectory(let path):
            return "\(path): recording folder not found"
        case .missingStream(let path, let reason):
            return "\(path): \(reason)"
        case .empty(let path):
            return "\(path): empty recording (no NNNNNN.png frames in color/ and depth/)"
        case .countMismatch(let path, let color, let depth):
            return "\(path): no frame number has both colour and depth (\(color) colour frames, \(depth) depth frames); "
                + "color/NNNNNN.png pairs with depth/NNNNNN.png of the same number"
        case .badSettings(let path, let detail):
            return "\(path): \(detail)"
        case .badFrame(let path, let detail):
            return "\(path): \(detail)"
        case .frameOutOfRange(let frame, let count):
            return "frame \(frame) is outside the recording's \(count) frames"
        case .image(let error):
            return error.message
        case .cannotWrite(let path, let reason):
            return "\(path): cannot write (\(reason))"
        }
    }
}
