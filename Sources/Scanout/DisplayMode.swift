import Frames
import CDRM

/// One display timing the connector offers, and the rule that picks the one the booth drives.
/// The raw drmModeModeInfo stays inside Scanout.
public struct DisplayMode {
    public let size: FrameSize
    public let refreshHz: Int
    public let name: String
    public let preferred: Bool
    /// Interlaced timings (1080i) draw every other line per field: a moving person combs on them.
    public let interlaced: Bool
    let info: drmModeModeInfo

    init(_ info: drmModeModeInfo) {
        self.info = info
        size = FrameSize(width: Int(info.hdisplay), height: Int(info.vdisplay))
        refreshHz = Int(info.vrefresh)
        name = KMSProperties.string(info.name)
        preferred = info.type & UInt32(DRM_MODE_TYPE_PREFERRED) != 0
        interlaced = info.flags & UInt32(DRM_MODE_FLAG_INTERLACE) != 0
    }

    public var description: String { "\(size.description)@\(refreshHz)\(interlaced ? "i" : "")" }

    /// The largest size `auto` takes by itself. The booth composes every frame on the CPU at the
    /// display's size, and a 4K mode's buffers (33 MB each) do not fit the Pi's 64 MB of CMA; a
    /// TV scales 1080p to its panel as well as we could.
    public static let autoLimit = FrameSize(width: 1920, height: 1080)

    /// What one mode's scanout buffers may take: `buffers` buffers of 4 bytes a pixel (XRGB8888 or
    /// ARGB8888) within `bytes`, the CMA the display driver allocates them from; nil where the
    /// buffers do not come from CMA (no bound).
    public struct Budget: Equatable, Sendable {
        public let bytes: Int?
        public let buffers: Int

        public static let unbounded = Budget(bytes: nil, buffers: 1)

        public init(bytes: Int?, buffers: Int) {
            self.bytes = bytes
            self.buffers = buffers
        }

        public func bytes(for size: FrameSize) -> Int { buffers * size.width * size.height * 4 }

        public func fits(_ size: FrameSize) -> Bool {
            guard let bytes else { return true }
            return self.bytes(for: size) <= bytes
        }

        /// From /proc/meminfo's text: `CmaFree` when the kernel has a CMA area (`CmaTotal` above 0),
        /// else unbounded. Free, not total: the console's framebuffer and other drivers hold theirs.
        public static func fromMeminfo(_ text: String, buffers: Int) -> Budget {
            var total = 0
            var free: Int? = nil
            for line in text.split(separator: "\n") {
                let fields = line.split(separator: " ")
                guard fields.count >= 2, let kib = Int(fields[1]) else { continue }
                if fields[0] == "CmaTotal:" { total = kib }
                if fields[0] == "CmaFree:" { free = kib }
            }
            guard total > 0, let free else { return .unbounded }
            return Budget(bytes: free * 1024, buffers: buffers)
        }
    }

    /// The mode to drive. A configured size (`wanted`) is taken at its highest refresh rate when
    /// offered, budget or not: the maker asked for it (and a mode that does not fit then fails to
    /// allocate, saying so). Otherwise (`auto`), among the modes whose buffers fit the budget,
    /// progressive before interlaced:
    /// - the display's preferred mode when it is at most `autoLimit` (its native size: a 720p
    ///   projector or a 1366x768 TV looks sharpest there, and costs the CPU least);
    /// - else the largest mode within `autoLimit`;
    /// - else (a display offering only bigger modes) the smallest one;
    /// at the chosen size 60 Hz first, then the highest rate. Nil when no mode fits the budget.
    /// Pure so the rule is testable without a display.
    public static func choose(_ modes: [DisplayMode], wanted: FrameSize?, budget: Budget = .unbounded) -> DisplayMode? {
        if let wanted {
            var best: DisplayMode? = nil
            for mode in modes where mode.size == wanted {
                guard let current = best else { best = mode; continue }
                if (mode.interlaced ? 0 : 1, mode.refreshHz) > (current.interlaced ? 0 : 1, current.refreshHz) { best = mode }
            }
            if let best { return best }
        }
        var fitting: [DisplayMode] = []
        for mode in modes where budget.fits(mode.size) { fitting.append(mode) }
        var pool: [DisplayMode] = []
        for mode in fitting where !mode.interlaced { pool.append(mode) }
        if pool.isEmpty { pool = fitting }
        if let native = pool.first(where: { $0.preferred && $0.size.isWithin(autoLimit) }) {
            return bestRate(at: native.size, in: pool)
        }
        var chosen: FrameSize? = nil
        for mode in pool where mode.size.isWithin(autoLimit) {
            if chosen == nil || mode.size.pixelCount > chosen!.pixelCount { chosen = mode.size }
        }
        if chosen == nil {
            for mode in pool where chosen == nil || mode.size.pixelCount < chosen!.pixelCount { chosen = mode.size }
        }
        guard let chosen else { return nil }
        return bestRate(at: chosen, in: pool)
    }

    /// 60 Hz first (what every TV shows without judder at 30 camera frames a second), then the
    /// highest rate.
    private static func bestRate(at size: FrameSize, in pool: [DisplayMode]) -> DisplayMode? {
        var best: DisplayMode? = nil
        for mode in pool where mode.size == size {
            guard let current = best else { best = mode; continue }
            if (mode.refreshHz == 60 ? 1 : 0, mode.refreshHz) > (current.refreshHz == 60 ? 1 : 0, current.refreshHz) { best = mode }
        }
        return best
    }
}

private extension FrameSize {
    func isWithin(_ limit: FrameSize) -> Bool { width <= limit.width && height <= limit.height }
}
