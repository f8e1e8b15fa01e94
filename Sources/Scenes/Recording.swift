import CKernel
import Frames
import ImageCodec
import KernelIO

/// A recorded RGB-D sequence on disk (DESIGN.md "Recording layout"):
/// `DIR/color/NNNNNN.png` (8-bit RGB or RGBA), `DIR/depth/NNNNNN.png` (16-bit grey, 0 = no
/// reading) and `DIR/recording.ini` (see `RecordingSettings`). Frame i is the i-th file of each
/// folder in numeric order.
///
/// `open` lists the folders, reads the settings and the first frame's headers; `load` decodes one
/// frame into buffers the caller owns. `load` reuses one decoder and its file buffer, so after the
/// first frame it allocates only inside libspng's per-file context. Not thread-safe.
public struct Recording {
    public let path: String
    public let frameCount: Int
    public let colorSize: FrameSize
    public let depthSize: FrameSize
    public let settings: RecordingSettings
    private let colorPaths: [String]
    private let depthPaths: [String]
    private let decoder: ImageDecoder

    public var unitMM: Float { settings.unitMM }
    public var registered: Bool { settings.registered }
    public var intrinsics: PinholeIntrinsics? { settings.intrinsics }
    public var frameRate: Int { settings.frameRate }

    public static func open(_ path: String) throws(RecordingError) -> Recording {
        guard bk_is_directory(path) == 1 else { throw .missingDirectory(path: path) }
        let colorNames = try frameNames(path + "/color")
        let depthNames = try frameNames(path + "/depth")
        guard !(colorNames.isEmpty && depthNames.isEmpty) else { throw .empty(path: path) }
        guard colorNames.count == depthNames.count else {
            throw .countMismatch(path: path, color: colorNames.count, depth: depthNames.count)
        }
        let settings = try RecordingSettings.load(path: path + "/recording.ini")
        let decoder = ImageDecoder()
        let colorPaths = colorNames.map { path + "/color/" + $0 }
        let depthPaths = depthNames.map { path + "/depth/" + $0 }
        let colorHeader: ImageHeader
        let depthHeader: ImageHeader
        do throws(ImageError) {
            colorHeader = try decoder.header(path: colorPaths[0])
            depthHeader = try decoder.header(path: depthPaths[0])
        } catch {
            throw .image(error)
        }
        guard colorHeader.naturalFormat == .rgb24 else {
            throw .badFrame(path: colorPaths[0], detail: "colour frames must be 8-bit RGB or RGBA PNGs")
        }
        guard depthHeader.naturalFormat == .z16 else {
            throw .badFrame(path: depthPaths[0], detail: "depth frames must be 16-bit greyscale PNGs")
        }
        return Recording(path: path, frameCount: colorNames.count, colorSize: colorHeader.size,
                         depthSize: depthHeader.size, settings: settings, colorPaths: colorPaths,
                         depthPaths: depthPaths, decoder: decoder)
    }

    /// Frame `frame`'s file name ("000012.png"): truth masks for `backdrop eval` are named the same.
    public func frameName(_ frame: Int) -> String {
        let path = colorPaths[frame]
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    /// Decodes frame `frame` into `color` (RGB24 at `colorSize`) and `depth` (Z16 at `depthSize`).
    public func load(frame: Int, color: ImageView, depth: ImageView) throws(RecordingError) {
        guard frame >= 0 && frame < frameCount else { throw .frameOutOfRange(frame: frame, count: frameCount) }
        precondition(color.format == .rgb24 && color.size == colorSize, "colour target must be RGB24 at the recording's colour size")
        precondition(depth.format == .z16 && depth.size == depthSize, "depth target must be Z16 at the recording's depth size")
        do throws(ImageError) {
            try decoder.decode(path: colorPaths[frame], into: color)
            try decoder.decode(path: depthPaths[frame], into: depth)
        } catch {
            throw .image(error)
        }
    }

    /// The file names of frames in `directory` ("<digits>.png"), in numeric order.
    private static func frameNames(_ directory: String) throws(RecordingError) -> [String] {
        guard bk_is_directory(directory) == 1 else {
            throw .missingStream(path: directory, reason: "folder missing (a recording has color/ and depth/)")
        }
        let names: [String]
        do throws(SystemError) {
            names = try DirectoryListing.names(in: directory, capacityBytes: 4 << 20)
        } catch {
            throw .missingStream(path: directory, reason: "cannot list: " + error.errno.description)
        }
        var frames: [(number: Int, name: String)] = []
        for name in names {
            if let number = frameNumber(name) { frames.append((number, name)) }
        }
        frames.sort { $0.number < $1.number }
        return frames.map { $0.name }
    }

    /// 12 for "000012.png"; nil for anything that is not digits followed by ".png".
    private static func frameNumber(_ name: String) -> Int? {
        let bytes = Array(name.utf8)
        guard bytes.count > 4, bytes.count <= 14 else { return nil }
        let suffix = bytes[(bytes.count - 4)...]
        guard suffix.elementsEqual(".png".utf8) else { return nil }
        var number = 0
        for byte in bytes[..<(bytes.count - 4)] {
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
            number = number * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return number
    }
}
