import Frames
import ImageCodec
import KernelIO

/// One backdrop, decoded and scaled to the output size, ready to be blended over.
/// A class so the library can keep several in an array (PixelBuffer is move-only).
public final class BackgroundImage {
    /// The file name it came from ("built-in" for the default gradient).
    public let name: String
    public let buffer: PixelBuffer

    public init(name: String, buffer: consuming PixelBuffer) {
        self.name = name
        self.buffer = buffer
    }

    public var view: ImageView { buffer.view }

    /// Decodes `path` and scales it to `outputSize` with `fit`.
    public static func load(path: String, name: String, outputSize: FrameSize, fit: FitMode,
                            decoder: ImageDecoder) throws(ImageError) -> BackgroundImage {
        let scaled: PixelBuffer
        do throws(SystemError) {
            scaled = try PixelBuffer(allocating: .xrgb8888, size: outputSize)
        } catch {
            throw .outOfMemory(path: path, width: outputSize.width, height: outputSize.height)
        }
        try decode(path: path, fit: fit, decoder: decoder, into: scaled.view)
        return BackgroundImage(name: name, buffer: scaled)
    }

    /// Decodes `path` and scales it into `output` (XRGB8888, the output size) with `fit`.
    static func decode(path: String, fit: FitMode, decoder: ImageDecoder, into output: ImageView) throws(ImageError) {
        let decoded = try check(path: path, covering: output.size, decoder: decoder)
        BackdropScaler.scale(decoded.view, into: output, fit: fit)
    }

    /// Decodes `path` at the smallest scale that still covers `size` and checks it is a colour image.
    static func check(path: String, covering size: FrameSize, decoder: ImageDecoder) throws(ImageError) -> PixelBuffer {
        let decoded = try decoder.decode(path: path, covering: size)
        guard decoded.format == .rgb24 else {
            throw .mismatch(path: path, detail: "a 16-bit greyscale image (depth map?) is not a backdrop")
        }
        return decoded
    }

    /// The backdrop shown when no image could be loaded: a dark blue vertical gradient, so the box
    /// still shows the person over something rather than a black screen.
    static func drawGradient(into view: ImageView) {
        let height = max(1, view.size.height - 1)
        for y in 0..<view.size.height {
            let blue = UInt32(90 - 70 * y / height)
            let green = UInt32(40 - 30 * y / height)
            let red = UInt32(20 - 15 * y / height)
            let word = 0xFF00_0000 | red << 16 | green << 8 | blue
            view.row(y).bindMemory(to: UInt32.self, capacity: view.size.width).update(repeating: word, count: view.size.width)
        }
    }
}
