import CKernel
import Frames
import ImageCodec
import KernelIO

/// Writes the recording layout `Recording` reads (DESIGN.md "Recording layout"): `color/`,
/// `depth/`, optionally `truth/` (8-bit masks named like the frames, for `backdrop eval`), and
/// `recording.ini` with the unit, registration, intrinsics and frame rate in force.
///
/// `recording.ini` is written first, so a recording cut short is still a valid recording of
/// the frames that made it. Frames are numbered from 0 in call order.
public struct RecordingWriter {
    public let path: String
    public let withTruth: Bool
    public private(set) var framesWritten = 0

    /// Creates the folders (parents too) and writes `recording.ini`.
    public init(path: String, settings: RecordingSettings, withTruth: Bool) throws(RecordingError) {
        self.path = path
        self.withTruth = withTruth
        try Self.makeDirectory(path)
        try Self.makeDirectory(path + "/color")
        try Self.makeDirectory(path + "/depth")
        if withTruth { try Self.makeDirectory(path + "/truth") }
        try Self.writeText(Self.iniText(settings), to: path + "/recording.ini")
    }

    /// Appends one frame: `color` .rgb24, `depth` .z16, `truth` .alpha8 (required when the
    /// writer was made `withTruth`).
    public mutating func append(color: ImageView, depth: ImageView, truth: ImageView?) throws(RecordingError) {
        precondition(color.format == .rgb24 && depth.format == .z16)
        precondition(!withTruth || truth?.format == .alpha8, "a writer with truth needs a truth mask per frame")
        let name = Self.frameName(framesWritten)
        do throws(ImageError) {
            try PNGEncoder.write(color, to: path + "/color/" + name, compressionLevel: 1)
            try PNGEncoder.write(depth, to: path + "/depth/" + name, compressionLevel: 1)
            if withTruth, let truth { try PNGEncoder.write(truth, to: path + "/truth/" + name, compressionLevel: 1) }
        } catch {
            throw .image(error)
        }
        framesWritten += 1
    }

    public static func frameName(_ index: Int) -> String {
        var digits = "\(index)"
        while digits.count < 6 { digits = "0" + digits }
        return digits + ".png"
    }

    /// The settings as recording.ini text; `RecordingSettings.load` reads it back unchanged
    /// (decimals to 1/1000).
    public static func iniText(_ settings: RecordingSettings) -> String {
        var text = "[depth]\nunit_mm = \(decimal(settings.unitMM))\nregistered = \(settings.registered)\n"
        if let size = settings.depthSize { text += "width = \(size.width)\nheight = \(size.height)\n" }
        if let k = settings.intrinsics {
            text += "\n[intrinsics]\nfx = \(decimal(k.fx))\nfy = \(decimal(k.fy))\ncx = \(decimal(k.cx))\ncy = \(decimal(k.cy))\n"
        }
        text += "\n[recording]\nframe_rate = \(settings.frameRate)\n"
        return text
    }

    /// Fixed point with three decimals: Float's own description is not available in Embedded
    /// Swift, and three decimals are finer than any intrinsic or unit needs.
    public static func decimal(_ value: Float) -> String {
        let negative = value < 0
        let thousandths = Int((negative ? -value : value) * 1000 + 0.5)
        var fraction = "\(thousandths % 1000)"
        while fraction.count < 3 { fraction = "0" + fraction }
        return (negative ? "-" : "") + "\(thousandths / 1000)." + fraction
    }

    static func makeDirectory(_ path: String) throws(RecordingError) {
        var partial = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            partial += "/" + component
            if bk_is_directory(partial) == 1 { continue }
            if bk_mkdir(partial, 0o755) != 0 && Errno.current != Errno(Int32(BK_EEXIST)) {
                throw .cannotWrite(path: partial, reason: Errno.current.description)
            }
        }
    }

    public static func writeText(_ text: String, to path: String) throws(RecordingError) {
        let bytes = Array(text.utf8)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
        defer { buffer.deallocate() }
        buffer.copyBytes(from: bytes)
        do throws(SystemError) {
            let file = try FileDescriptor.createTruncating(path)
            try file.writeAll(UnsafeRawBufferPointer(buffer))
        } catch {
            throw .cannotWrite(path: path, reason: error.errno.description)
        }
    }
}
