import Runtime
import CKernel
import Capture
import Frames
import KernelIO

/// `backdrop cameras [--json] [--dump DIR] [--dev DIR]`: every camera found, its nodes with their
/// roles and formats, and the calibration the box would use with where it comes from.
/// `backdrop cameras --calibration-from DIR [--depth-size WxH] [--color-size WxH] [--json]`: the
/// same parse on saved replies (DIR/depth.bin, DIR/color.bin, each the 1024-byte GETINTCAL
/// reply; DIR/units.bin the GET_ADV one, optional), so a user can send a dump and tests can feed
/// real bytes.
enum CamerasCommand {
    // Here rather than in HelpText while that file is being reorganised; to move there.
    static let help = """
    usage: backdrop cameras [--json] [--dump DIR] [--dev DIR]
           backdrop cameras --calibration-from DIR [--depth-size WxH] [--color-size WxH] [--json]

    Lists every V4L2 camera: its nodes with their roles (depth, infrared, colour, metadata, from
    the USB interface's name) and formats, the nodes the box would take, and the calibration it
    would register depth to colour with, and where that comes from. A RealSense D415/D435/D455 is
    asked for its factory calibration over its extension unit (depth 848x480, colour 1280x720).
      --json                 one JSON object instead of text
      --dump DIR             also save the first RealSense's raw replies: DIR/depth.bin and
                             DIR/color.bin (GETINTCAL, 1024 bytes each), DIR/units.bin (GET_ADV)
      --dev DIR              where to look for video nodes (default /dev)
      --calibration-from DIR parse saved replies (as --dump writes them) instead of asking a
                             camera, and print the intrinsics and extrinsics for the sizes below
      --depth-size WxH       depth stream size for --calibration-from (default 848x480)
      --color-size WxH       colour stream size for --calibration-from (default 1280x720)
    exit codes: 0 listed or parsed; 1 --dump with no RealSense answering; 2 bad options or a
    saved reply that does not parse (the message says what was read).
    """

    static func run(_ arguments: [String]) throws(CommandFailure) {
        let options = try CommandOptions.parse(arguments, valued: ["--dump", "--dev", "--calibration-from",
                                                                   "--depth-size", "--color-size"],
                                               flags: ["--json"])
        _ = try options.positionals(0, names: "")
        let depthSize = try options.size("--depth-size") ?? RealSenseModel.depthSize
        let colorSize = try options.size("--color-size") ?? RealSenseModel.colorSize
        if let folder = options.value("--calibration-from") {
            guard options.value("--dump") == nil else {
                throw .invalidInput("--calibration-from reads a dump; --dump writes one: give one of them")
            }
            try fromDump(folder, depthSize: depthSize, colorSize: colorSize, json: options.has("--json"))
            return
        }
        guard options.value("--depth-size") == nil && options.value("--color-size") == nil else {
            throw .invalidInput("--depth-size and --color-size go with --calibration-from")
        }
        try live(directory: options.value("--dev") ?? "/dev", dump: options.value("--dump"), json: options.has("--json"))
    }

    // MARK: saved replies

    static let replyFiles = (depth: "depth.bin", color: "color.bin", units: "units.bin")

    static func fromDump(_ folder: String, depthSize: FrameSize, colorSize: FrameSize, json: Bool) throws(CommandFailure) {
        func load(_ name: String, required: Bool) throws(CommandFailure) -> [UInt8]? {
            let path = folder + "/" + name
            if !required && bk_file_size(path) < 0 { return nil }
            do throws(SystemError) {
                return try WholeFile.bytes(path, limit: 65536)
            } catch {
                throw .invalidInput("\(error.message) (a dump folder holds \(replyFiles.depth) and \(replyFiles.color), "
                                    + "as backdrop cameras --dump writes them)")
            }
        }
        let replies = RealSenseReplies(depthTable: try load(replyFiles.depth, required: true) ?? [],
                                       colorTable: try load(replyFiles.color, required: true) ?? [],
                                       depthUnits: try load(replyFiles.units, required: false))
        let calibration: CameraCalibration
        do throws(CalibrationError) {
            _ = try replies.parsedDepthTable()
        } catch {
            throw .invalidInput("\(folder)/\(replyFiles.depth): \(error.message)")
        }
        do throws(CalibrationError) {
            _ = try replies.parsedColorTable()
        } catch {
            throw .invalidInput("\(folder)/\(replyFiles.color): \(error.message)")
        }
        do throws(CalibrationError) {
            calibration = try replies.calibration(depthSize: depthSize, colorSize: colorSize, source: "saved replies in \(folder)")
        } catch {
            throw .invalidInput("\(folder): \(error.message)")
        }
        var unitNote: String? = nil
        do throws(CalibrationError) { _ = try replies.depthUnitMM() } catch {
            unitNote = "\(folder)/\(replyFiles.units): \(error.message); depth unit left to the config"
        }
        if json {
            StandardOutput.line(CalibrationReport.json(calibration))
        } else {
            StandardOutput.line("calibration from \(folder)")
            for line in CalibrationReport.lines(calibration, indent: "  ") { StandardOutput.line(line) }
        }
        if let unitNote { Log.warning(unitNote) }
    }

    // MARK: cameras

    /// What `cameras` found about one camera's calibration.
    enum Finding {
        case camera(CameraCalibration, RealSenseReplies)
        case unreadable(String)
        case aligned(String)
        case none(String)

        var text: String {
            switch self {
            case .camera(let c, _): return "from the camera: \(c.source)"
            case .unreadable(let why): return "the camera's tables could not be used (\(why)); [camera] intrinsics in the config, else unregistered"
            case .aligned(let why): return "none needed: \(why)"
            case .none(let why): return "none from the camera (\(why)); [camera] intrinsics in the config, else unregistered"
            }
        }
    }

    static func finding(_ camera: CameraGroup) -> Finding {
        guard let depth = camera.depthNode else { return .none("no depth node") }
        guard let colour = camera.colorNode else { return .aligned("depth and colour from one node") }
        _ = colour
        guard let model = camera.realSense else { return .none("not a RealSense D4xx") }
        guard model.hasSeparateColourSensor else { return .aligned("a D405's colour comes from its depth imager") }
        do throws(CaptureError) {
            let channel = try HardwareMonitorChannel(path: depth.path)
            let replies = try channel.readCalibration()
            do throws(CalibrationError) {
                let source = "RealSense \(model.rawValue) factory calibration (GETINTCAL on \(depth.path))"
                var calibration = try replies.calibration(depthSize: RealSenseModel.depthSize,
                                                          colorSize: RealSenseModel.colorSize, source: source)
                if calibration.depthUnitMM == nil { calibration.depthUnitMM = model.defaultDepthUnitMM }
                return .camera(calibration, replies)
            } catch {
                return .unreadable(error.message)
            }
        } catch {
            return .unreadable(error.message)
        }
    }

    static func live(directory: String, dump: String?, json: Bool) throws(CommandFailure) {
        let cameras = CameraGroup.group(DeviceProbe.scan(directory: directory))
        var texts: [String] = []
        var dumped = false
        for (index, camera) in cameras.enumerated() {
            let found = finding(camera)
            if let dump, !dumped, case .camera(_, let replies) = found {
                try write(replies, into: dump)
                dumped = true
            }
            texts.append(json ? cameraJSON(camera, found) : cameraText(index + 1, camera, found))
        }
        if json {
            StandardOutput.line("{\"cameras\": [" + texts.joined(separator: ", ") + "]}")
        } else if cameras.isEmpty {
            StandardOutput.line("no V4L2 cameras in \(directory)")
        } else {
            for text in texts { StandardOutput.write(text) }
        }
        if let dump, !dumped {
            throw .runtime("--dump \(dump): no RealSense D4xx answered the calibration commands; nothing written")
        }
    }

    static func write(_ replies: RealSenseReplies, into folder: String) throws(CommandFailure) {
        _ = bk_mkdir(folder, 0o755)
        var files = [(replyFiles.depth, replies.depthTable), (replyFiles.color, replies.colorTable)]
        if let units = replies.depthUnits { files.append((replyFiles.units, units)) }
        for (name, bytes) in files {
            let path = folder + "/" + name
            let failure = bytes.withUnsafeBytes { raw -> SystemError? in
                do throws(SystemError) {
                    try FileDescriptor.createTruncating(path).writeAll(raw)
                    return nil
                } catch {
                    return error
                }
            }
            if let failure { throw .runtime("--dump: \(failure.message)") }
        }
        Log.info("cameras: raw replies saved in \(folder) (\(replyFiles.depth), \(replyFiles.color)"
                 + (replies.depthUnits != nil ? ", \(replyFiles.units))" : ")"))
    }

    static func formats(_ node: DeviceDescription) -> [String] { node.formats.map { CaptureFormat.fourCCText($0) } }

    static func cameraText(_ number: Int, _ camera: CameraGroup, _ found: Finding) -> String {
        var text = "camera \(number): \(TerminalText.escaped(camera.name)) (\(TerminalText.escaped(camera.busInfo))"
        if let model = camera.realSense { text += ", RealSense \(model.rawValue)" }
        text += ")\n"
        for node in camera.nodes {
            let use = node.isSameNode(as: camera.depthNode ?? node) && camera.depthNode != nil ? "  <- depth"
                : camera.colorNode.map(node.isSameNode) == true ? "  <- colour" : ""
            text += "  \(node.path)  \(node.role.rawValue)  \(formats(node).joined(separator: " "))\(use)\n"
        }
        text += "  calibration: \(found.text)\n"
        if case .camera(let calibration, _) = found {
            for line in CalibrationReport.lines(calibration, indent: "    ") { text += line + "\n" }
        }
        return text
    }

    static func cameraJSON(_ camera: CameraGroup, _ found: Finding) -> String {
        var nodes: [String] = []
        for node in camera.nodes {
            let list = formats(node).map { CalibrationReport.quoted($0) }.joined(separator: ", ")
            nodes.append("{\"path\": \(CalibrationReport.quoted(node.path)), \"role\": \"\(node.role.rawValue)\", "
                         + "\"interface\": \(CalibrationReport.quoted(node.identity.interfaceName)), \"formats\": [\(list)]}")
        }
        var text = "{\"name\": \(CalibrationReport.quoted(camera.name)), \"bus\": \(CalibrationReport.quoted(camera.busInfo)), "
        text += "\"model\": " + (camera.realSense.map { "\"\($0.rawValue)\"" } ?? "null") + ", "
        text += "\"depth_node\": " + (camera.depthNode.map { CalibrationReport.quoted($0.path) } ?? "null") + ", "
        text += "\"color_node\": " + (camera.colorNode.map { CalibrationReport.quoted($0.path) } ?? "null") + ", "
        text += "\"nodes\": [" + nodes.joined(separator: ", ") + "], "
        if case .camera(let calibration, _) = found {
            text += "\"calibration\": " + CalibrationReport.json(calibration)
        } else {
            text += "\"calibration\": null, \"calibration_note\": " + CalibrationReport.quoted(found.text)
        }
        return text + "}"
    }
}
