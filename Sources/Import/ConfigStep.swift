import KernelIO
import Settings

/// The config of the new generation: the stick's `backdrop.conf` when it is valid, else the
/// current one (linked), else, on the very first import, the box's own config or an empty file.
enum ConfigStep {
    struct Result {
        let tookFromStick: Bool
        /// The new generation's config differs from the current one's.
        let changed: Bool
    }

    /// An empty config is a valid one: every key at its documented default.
    static let emptyConfig = Array("# No config has come from a stick yet: every key has its default (see config/backdrop.conf).\n".utf8)

    /// What the box adds to a config it stores: the one path it needs, pointing at the backdrops of
    /// whichever generation is current, so `backdrop run --config DIR/current/backdrop.conf` shows
    /// the generation's own backdrops. A stick cannot set paths, so this never meets the stick's own
    /// `[background] directory`; the text is the same for every generation, so the same stick
    /// still compares equal.
    static func boxLines(data: String) -> [UInt8] {
        Array(("\n# Added by the box (a stick cannot set paths): the backdrops of the current generation.\n"
            + "[background]\ndirectory = \(data)/current/\(GenerationLayout.backgrounds)\n").utf8)
    }

    /// `bytes` with the box's lines after them (a final newline first if the file lacks one).
    static func withBoxLines(_ bytes: [UInt8], data: String) -> [UInt8] {
        var stored = bytes
        if let last = stored.last, last != UInt8(ascii: "\n") { stored.append(UInt8(ascii: "\n")) }
        return stored + boxLines(data: data)
    }

    static func run(stick: borrowing DirectoryDescriptor, current: CurrentContent,
                    staged: borrowing StagedGeneration, options: StickImport.Options,
                    into report: inout ImportReport) throws(ImportAbort) -> Result {
        let limits = options.limits
        let label = StickImport.stickFolder + "/" + StickImport.stickConfig
        var fromStick: [UInt8]? = nil
        switch try stickKind(StickImport.stickConfig, in: stick) {
        case nil:
            report.note("no \(label) on the stick: " + (current.exists ? "kept the current config" : "the box's own config is used"))
        case .some(let kind) where kind != .regular:
            report.skipped("\(label): \(kind.description), not a file; kept the current config")
        case .some:
            do throws(StickFile.Refusal) {
                let bytes = try StickFile.read(StickImport.stickConfig, in: stick, limit: limits.configBytes)
                switch StickConfig.judge(bytes, fileName: label) {
                case .accepted(let bytes, let warnings):
                    for warning in warnings { report.note("warning: " + warning) }
                    report.taken("\(label): new config")
                    fromStick = withBoxLines(bytes, data: options.data)
                case .refused(let problems):
                    for problem in problems { report.skipped("config refused: " + problem, item: false) }
                    report.countSkipped()
                    report.configRefused = true
                    report.note("config refused: kept the current one")
                }
            } catch {
                try StickFailure.skipOrAbort(error, label: label, limits: limits, into: &report)
                report.note("kept the current config")
            }
            options.afterRead?(label)
        }

        let currentBytes = current.config
        do throws(SystemError) {
            if let fromStick {
                if let currentBytes, currentBytes == fromStick, let generation = current.path {
                    try staged.linkConfig(fromGeneration: generation)
                    return Result(tookFromStick: true, changed: false)
                }
                try staged.writeConfig(fromStick)
                return Result(tookFromStick: true, changed: true)
            }
            if let generation = current.path {
                try staged.linkConfig(fromGeneration: generation)
                return Result(tookFromStick: false, changed: false)
            }
            try staged.writeConfig(baseConfig(options.baseConfig, data: options.data, limit: limits.configBytes, into: &report))
            return Result(tookFromStick: false, changed: true)
        } catch {
            throw ImportAbort(error, doing: "cannot write the new generation's config")
        }
    }

    /// The box's own config for a first generation, if it is there and valid, pointed at the
    /// generation's backdrops as a stick's config is: its own `[background] directory` (the box's
    /// folder, which no generation fills) is commented out and the box's lines added.
    private static func baseConfig(_ path: String?, data: String, limit: Int, into report: inout ImportReport) -> [UInt8] {
        guard let path else { return withBoxLines(emptyConfig, data: data) }
        let bytes: [UInt8]
        do throws(SystemError) { bytes = try WholeFile.bytes(path, limit: limit) } catch { return withBoxLines(emptyConfig, data: data) }
        let text = String(decoding: bytes, as: UTF8.self)
        guard Settings.parse(text, fileName: path).settings != nil else {
            report.note("\(path) is not valid; the first generation starts from the defaults")
            return withBoxLines(emptyConfig, data: data)
        }
        let lines = Settings.assignmentLines(section: "background", name: "directory", in: text)
        guard !lines.isEmpty else { return withBoxLines(bytes, data: data) }
        var stored: [UInt8] = []
        var line = 1
        var atLineStart = true
        for byte in bytes {
            if atLineStart && lines.contains(line) {
                stored += Array("; replaced by the box's line below (this generation's own backdrops): ".utf8)
            }
            stored.append(byte)
            atLineStart = byte == UInt8(ascii: "\n")
            if atLineStart { line += 1 }
        }
        return withBoxLines(stored, data: data)
    }

    static func stickKind(_ name: String, in folder: borrowing DirectoryDescriptor) throws(ImportAbort) -> FileStatus.Kind? {
        do throws(SystemError) { return try StickFile.kind(of: name, in: folder) } catch {
            throw ImportAbort(error, doing: "cannot read the stick", on: .stick)
        }
    }
}
