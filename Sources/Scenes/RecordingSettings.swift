import Frames
import CInih

/// The contents of a recording's recording.ini:
///
///     [depth]
///     unit_mm = 1.0        ; millimetres per depth unit (TUM data: 0.2), default 1.0
///     registered = true    ; depth already aligned to colour, default true
///     width = 640          ; optional, both or neither: the depth frames' size, stated; registered
///     height = 480         ; depth of another size than colour is refused unless stated here
///     [intrinsics]         ; optional, all four or none
///     fx = 525.0
///     fy = 525.0
///     cx = 319.5
///     cy = 239.5
///     [recording]
///     frame_rate = 30      ; optional, frames per second, default 30 (alias: fps)
///
/// Unknown sections and keys are reported in `warnings`, not rejected, so newer recorders can add
/// keys. Parsed with libinih.
public struct RecordingSettings: Equatable {
    public var unitMM: Float = 1.0
    public var registered = true
    public var intrinsics: PinholeIntrinsics?
    public var frameRate = 30
    /// The depth frames' size when recording.ini states it.
    public var depthSize: FrameSize?
    public var warnings: [String] = []

    public init() {}

    /// Parses `path`; errors name the file and, for syntax errors and bad values, the line.
    public static func load(path: String) throws(RecordingError) -> RecordingSettings {
        let parser = RecordingSettingsParser()
        let context = Unmanaged.passUnretained(parser).toOpaque()
        let status = ini_parse(path, { context, section, name, value in
            guard let context, let section, let name, let value else { return 0 }
            let parser = Unmanaged<RecordingSettingsParser>.fromOpaque(context).takeUnretainedValue()
            return parser.accept(section: String(cString: section), name: String(cString: name),
                                 value: String(cString: value)) ? 1 : 0
        }, context)
        if status == -1 { throw .badSettings(path: path, detail: "cannot open (every recording needs a recording.ini)") }
        if status == -2 { throw .badSettings(path: path, detail: "out of memory while parsing") }
        if status > 0 {
            throw .badSettings(path: path, detail: "line \(status): " + (parser.failure ?? "syntax error"))
        }
        var settings = parser.settings
        switch (parser.depthWidth, parser.depthHeight) {
        case (let width?, let height?): settings.depthSize = FrameSize(width: width, height: height)
        case (nil, nil): break
        default: throw .badSettings(path: path, detail: "[depth] needs both width and height, or neither")
        }
        let parts = [parser.fx, parser.fy, parser.cx, parser.cy]
        let given = parts.filter { $0 != nil }.count
        if given == 4 {
            settings.intrinsics = PinholeIntrinsics(fx: parts[0]!, fy: parts[1]!, cx: parts[2]!, cy: parts[3]!)
        } else if given > 0 {
            throw .badSettings(path: path, detail: "[intrinsics] needs all of fx, fy, cx and cy")
        }
        return settings
    }
}
