import CKernel
import Frames
import ImageCodec
import KernelIO

/// A recorded RGB-D sequence on disk (DESIGN.md "Recording layout"):
/// `DIR/color/NNNNNN.png` (8-bit RGB or RGBA), `DIR/depth/NNNNNN.png` (16-bit grey, 0 = no
/// reading) and `DIR/recording.ini` (see `RecordingSettings`). Colour and depth pair by the number
/// in their names, never by position: frame i is the i-th number both folders hold, and a number
/// only one folder holds is left out and counted (`unpairedColor`, `unpairedDepth`).
///
/// Depth is taken pixel for pixel at the colour's size when registered; depth of another size is
/// refused unless recording.ini states that size (`[depth] width/height`), which says it is meant
/// to be resampled (`depthResampled`).
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
    /// Frame numbers with colour but no depth, and depth but no colour: skipped, never mispaired.
    public let unpairedColor: [Int]
    public let unpairedDepth: [Int]
    private let numbers: [Int]
    private let colorPaths: [String]
    private let depthPaths: [String]
    private let decoder: ImageDecoder

    public var unitMM: Float { settings.unitMM }
    public var registered: Bool { settings.registered }
    public var intrinsics: PinholeIntrinsics? { settings.intrinsics }
    public var frameRate: Int { settings.frameRate }

    public static func open(_ path: String) throws(RecordingError) -> Recording {
        guard bk_is_directory(path) == 1 else { throw .missingDirectory(path: path) }
        let colorFrames = try frameNames(path + "/color")
        let depthFrames = try frameNames(path + "/depth")
        guard !(colorFrames.isEmpty && depthFrames.isEmpty) else { throw .empty(path: path) }
        var depthByNumber: [Int: String] = [:]
        for frame in depthFrames { depthByNumber[frame.number] = frame.name }
        var colorNumbers = Set<Int>()
        var numbers: [Int] = []
        var colorPaths: [String] = []
        var depthPaths: [String] = []
        var unpairedColor: [Int] = []
        for frame in colorFrames {
            colorNumbers.insert(frame.number)
            guard let depthName = depthByNumber[frame.number] else { unpairedColor.append(frame.number); continue }
            numbers.append(frame.number)
            colorPaths.append(path + "/color/" + frame.name)
            depthPaths.append(path + "/depth/" + depthName)
        }
        let unpairedDepth = depthFrames.map { $0.number }.filter { !colorNumbers.contains($0) }
        guard !numbers.isEmpty else {
            throw .countMismatch(path: path, color: colorFrames.count, depth: depthFrames.count)
        }
        let settings = try RecordingSettings.load(path: path + "/recording.ini")
        let decoder = ImageDecoder()
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
        if let stated = settings.depthSize {
            guard depthHeader.size == stated else {
                throw .badFrame(path: depthPaths[0], detail: "depth is \(depthHeader.size.description) but recording.ini "
                                + "states [depth] width/height \(stated.description)")
            }
        } else if settings.registered && depthHeader.size != colorHeader.size {
            throw .badFrame(path: depthPaths[0], detail: "depth is \(depthHeader.size.description) but colour is "
                            + "\(colorHeader.size.description); registered depth is used pixel for pixel, so it must be "
                            + "the colour's size (state [depth] width = \(depthHeader.size.width), height = "
                            + "\(depthHeader.size.height) in recording.ini to have it resampled)")
        }
        return Recording(path: path, frameCount: numbers.count, colorSize: colorHeader.size,
                         depthSize: depthHeader.size, settings: settings, unpairedColor: unpairedColor,
                         unpairedDepth: unpairedDepth, numbers: numbers, colorPaths: colorPaths,
                         depthPaths: depthPaths, decoder: decoder)
    }

    /// Registered depth of another size than colour, stretched to it because recording.ini says so.
    public var depthResampled: Bool { registered && depthSize != colorSize }

    /// The number in frame `frame`'s file names.
    public func frameNumber(_ frame: Int) -> Int { numbers[frame] }

    /// One line on the frames left out, or nil when every frame had its partner.
    public var unpairedSummary: String? {
        guard !unpairedColor.isEmpty || !unpairedDepth.isEmpty else { return nil }
        func list(_ numbers: [Int]) -> String {
            numbers.prefix(5).map { "\($0)" }.joined(separator: ", ") + (numbers.count > 5 ? ", ..." : "")
        }
        var parts: [String] = []
        if !unpairedColor.isEmpty {
            parts.append("\(unpairedColor.count) colour frame" + (unpairedColor.count == 1 ? "" : "s")
                         + " without depth (\(list(unpairedColor)))")
        }
        if !unpairedDepth.isEmpty {
            parts.append("\(unpairedDepth.count) depth frame" + (unpairedDepth.count == 1 ? "" : "s")
                         + " without colour (\(list(unpairedDepth)))")
        }
        return "skipped " + parts.joined(separator: " and ") + " in \(path)"
    }

    /// Frame `frame`'s file name ("000012.png"): truth masks for `backdrop eval` are named the same.
    public func frameName(_ frame: Int) -> String {
        let path = colorPaths[frame]
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    /// The name an output of frame `frame` gets: its number, six digits, so outputs keep the
    /// recording's numbering (gaps included).
    public func outputName(_ frame: Int) -> String { RecordingWriter.frameName(numbers[frame]) }

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
    private static func frameNames(_ directory: String) throws(RecordingError) -> [(number: Int, name: String)] {
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
        return frames
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
