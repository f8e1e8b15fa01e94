import Frames

/// What a file holds, read from its header without decoding the pixels.
public struct ImageHeader: Equatable {
    public let container: ImageContainer
    /// As displayed: a JPEG whose EXIF orientation turns it sideways reports its upright size.
    public let size: FrameSize
    /// The format `ImageDecoder.decode(path:)` produces: `.z16` for 16-bit greyscale PNG,
    /// `.rgb24` for everything else (grey, palette and alpha are expanded or dropped).
    public let naturalFormat: PixelFormat
    /// True for 8-bit greyscale PNGs, which can also be decoded straight into an ALPHA8 view.
    public let isGrey8: Bool
    /// The JPEG's EXIF orientation, which decoding applies; always `.upright` for PNG.
    public let orientation: ExifOrientation

    public init(container: ImageContainer, size: FrameSize, naturalFormat: PixelFormat, isGrey8: Bool,
                orientation: ExifOrientation = .upright) {
        self.container = container
        self.size = size
        self.naturalFormat = naturalFormat
        self.isGrey8 = isGrey8
        self.orientation = orientation
    }
}
