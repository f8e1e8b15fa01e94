import Frames
import ImageCodec

/// A backdrop is taken only if it decodes, with the same decoder the box uses to show it: a file
/// that passes here cannot fail later on the box for its content. Extensions are not trusted; the
/// signature decides, and the pixel bounds are checked from the header before any pixel memory.
enum StickBackdrop {
    /// The displayed size of the image, or why it is refused.
    static func check(_ bytes: [UInt8], name: String, limits: ImportLimits, decoder: ImageDecoder) -> Result<FrameSize, ImageRefusal> {
        var result: Result<FrameSize, ImageRefusal> = .failure(ImageRefusal(reason: "empty"))
        bytes.withUnsafeBytes { raw in
            do throws(ImageError) {
                let header = try decoder.header(of: raw, path: name)
                let size = header.size
                guard size.width <= limits.pixelsPerSide, size.height <= limits.pixelsPerSide,
                      size.pixelCount <= limits.pixels else {
                    result = .failure(ImageRefusal(reason: overBounds(size.width, size.height, limits)))
                    return
                }
                // Decoding the whole image proves the data, not just the header, is good.
                _ = try decoder.decode(bytes: raw, name: name)
                result = .success(size)
            } catch {
                result = .failure(ImageRefusal(reason: reason(error, limits)))
            }
        }
        return result
    }

    /// The decoder's reason without the file name it starts with (the import line names the file).
    private static func reason(_ error: ImageError, _ limits: ImportLimits) -> String {
        switch error {
        case .unsupportedFormat(_, let detail): return detail == "the file is empty" ? "the file is empty" : "not a PNG or JPEG"
        case .corrupt(_, let detail): return "corrupt or truncated image (\(detail))"
        // The decoder refuses past its own limits from the header; the line names the documented bound.
        case .tooLarge(_, let width, let height): return overBounds(width, height, limits)
        case .unreadable(_, let reason): return "cannot read: \(reason)"
        case .mismatch(_, let detail): return detail
        case .writeFailed(_, let reason): return reason
        case .outOfMemory(_, let width, let height): return "image is \(width)x\(height), more than the box has memory to decode"
        }
    }
}

extension StickBackdrop {
    static func overBounds(_ width: Int, _ height: Int, _ limits: ImportLimits) -> String {
        "image is \(width)x\(height), over the limit of \(limits.pixelsPerSide) per side and \(limits.pixels) pixels"
    }
}

struct ImageRefusal: Error {
    let reason: String
}
