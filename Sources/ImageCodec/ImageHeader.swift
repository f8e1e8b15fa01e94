import Frames

/// What a file holds, read from its header without decoding the pixels.
public struct ImageHeader: Equatable {
    public let container: ImageContainer
    public let size: FrameSize
    /// The format `ImageDecoder.decode(path:)` produces: `.z16` for 16-bit greyscale PNG,
    /// `.rgb24` for everything else (grey, palette and alpha are expanded or dropped).
    public let naturalFormat: PixelFormat
    /// True for 8-bit greyscale PNGs, which can also be decoded straight into an ALPHA8 view.
    public let isGrey8: Bool

    public init(container: ImageContainer, size: FrameSize, naturalFormat: PixelFormat, isGrey8: Bool) {
        self.container = container
        self.size = size
        self.naturalFormat = naturalFormat
        self.isGrey8 = isGrey8
    }
}
