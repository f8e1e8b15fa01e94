import CKernel
import Frames
import ImageCodec
import KernelIO

/// The ring of backdrops, with a memory budget that fits a 1 GB board: only `residentSlots`
/// output-sized images are decoded at a time (the current one, the next and the previous one
/// ready for a button press, and the one shown before, which compute may still be blending over).
/// 64 decoded 1080p backdrops would hold 512 MiB; four hold 32 MiB (133 MiB at 4K), whatever the
/// folder holds. The files stay where they are (the import never changes a generation it has
/// switched to) and are decoded again when they come next in line.
///
/// So a switch to a neighbour is a pointer change; the decode of the new neighbour follows in the
/// same call (`lastSwitch` says how long each part took). The frame path never decodes.
///
/// Loading never fails as a whole: every file is decoded once at load, and files that cannot be
/// used are skipped and reported as warning lines (file name and reason) for the caller to log; the
/// library itself does not log. When no file is usable (missing or empty folder, every file bad)
/// the library holds the built-in gradient (`usesBuiltInDefault`) plus a warning saying so,
/// because the box must always show something.
///
/// Not thread-safe: move through the ring from one thread (the I/O thread). A view from `current`
/// stays valid until two more switches have happened (its slot is the last to be refilled);
/// `view(at:)` of an image not resident is valid until the next such call.
public final class BackgroundLibrary {
    /// Upper bound on images listed (each costs only its name and path until shown).
    public static let maximumImages = 64
    /// Decoded images held at once, see above.
    public static let residentSlots = 4

    /// How long the last switch took: until the new backdrop could be shown (zero when it was
    /// prepared ahead), and the decoding of its neighbours that followed.
    public struct SwitchTiming: Equatable {
        public var visibleNanoseconds: UInt64 = 0
        public var preparingNanoseconds: UInt64 = 0
    }

    public let outputSize: FrameSize
    public let fit: FitMode
    public let usesBuiltInDefault: Bool
    public private(set) var currentIndex = 0
    public private(set) var lastSwitch = SwitchTiming()
    private let entries: [BackdropEntry]
    /// Fixed for the library's life (never reallocated), so a view handed out keeps pointing at
    /// the same memory; only a slot's `index` changes when it is refilled.
    private let slots: [BackdropSlot]
    private var currentSlot = 0
    private var inspection: BackdropSlot?
    private let decoder = ImageDecoder()
    private var problems: [String] = []

    /// Throws when the slots' memory is not there (ENOMEM): the caller says so and keeps what it
    /// had (a rescan keeps the set shown; a start-up fails with the message and status 1).
    init(entries: [BackdropEntry], outputSize: FrameSize, fit: FitMode, usesBuiltInDefault: Bool) throws(SystemError) {
        precondition(!entries.isEmpty)
        self.entries = entries
        self.outputSize = outputSize
        self.fit = fit
        self.usesBuiltInDefault = usesBuiltInDefault
        var made: [BackdropSlot] = []
        for _ in 0..<min(entries.count, Self.residentSlots) { made.append(try BackdropSlot(outputSize: outputSize)) }
        slots = made
        show(0, after: 0)
    }

    public var count: Int { entries.count }
    public var current: ImageView { slots[currentSlot].view }
    public var currentName: String { entries[currentIndex].name }
    public func name(at index: Int) -> String { entries[index].name }

    /// Bytes of decoded pixels the library holds (the budget above), whatever `count` is.
    public var residentBytes: Int { (slots.count + (inspection == nil ? 0 : 1)) * slots[0].buffer.byteCount }

    /// Image `index`, decoded for inspection (tests, tools) if it is not resident.
    /// Throws when the inspection slot's memory is not there.
    public func view(at index: Int) throws(SystemError) -> ImageView {
        if let slot = slots.first(where: { $0.index == index }) { return slot.view }
        let slot: BackdropSlot
        if let inspection { slot = inspection } else { slot = try BackdropSlot(outputSize: outputSize) }
        inspection = slot
        fill(slot, with: index)
        return slot.view
    }

    /// Files that could not be decoded again when their turn came (changed or removed since the
    /// load): the gradient was shown in their place. Returned once, for the caller to log.
    public func takeProblems() -> [String] {
        defer { problems.removeAll() }
        return problems
    }

    /// Advances, wrapping from the last to the first.
    public func next() { show((currentIndex + 1) % entries.count, after: currentIndex) }

    /// Steps back, wrapping from the first to the last.
    public func previous() { show((currentIndex + entries.count - 1) % entries.count, after: currentIndex) }

    /// Selects `index`; returns false (and changes nothing) when it is out of range.
    @discardableResult
    public func select(_ index: Int) -> Bool {
        guard entries.indices.contains(index) else { return false }
        show(index, after: currentIndex)
        return true
    }

    /// Makes `index` current, then decodes its neighbours into slots that hold neither them, nor
    /// the image shown until now.
    private func show(_ index: Int, after previous: Int) {
        let start = MonotonicClock.nowNanoseconds()
        let following = (index + 1) % entries.count, preceding = (index + entries.count - 1) % entries.count
        let wanted = [index, following, preceding, previous]
        currentIndex = index
        currentSlot = ensureResident(index, keeping: wanted)
        let visible = MonotonicClock.nowNanoseconds()
        _ = ensureResident(following, keeping: wanted)
        _ = ensureResident(preceding, keeping: wanted)
        lastSwitch = SwitchTiming(visibleNanoseconds: visible - start,
                                  preparingNanoseconds: MonotonicClock.nowNanoseconds() - visible)
    }

    /// The slot holding `index`, filling one first if none does. There are at most as many
    /// distinct images in `keeping` as slots, so when `index` is missing a slot holding none of
    /// them is there to refill.
    private func ensureResident(_ index: Int, keeping: [Int]) -> Int {
        if let held = slots.firstIndex(where: { $0.index == index }) { return held }
        guard let free = slots.firstIndex(where: { !keeping.contains($0.index) }) else {
            preconditionFailure("backdrop slots: \(slots.count) slots cannot hold \(keeping)")
        }
        fill(slots[free], with: index)
        return free
    }

    private func fill(_ slot: BackdropSlot, with index: Int) {
        slot.index = index
        switch entries[index].origin {
        case .builtIn:
            BackgroundImage.drawGradient(into: slot.view)
        case .generated(let backdrop):
            backdrop.draw(into: slot.view)
        case .file(let path):
            do throws(ImageError) {
                try BackgroundImage.decode(path: path, fit: fit, decoder: decoder, into: slot.view)
            } catch {
                problems.append("backgrounds: cannot show " + error.message + "; showing the built-in gradient")
                BackgroundImage.drawGradient(into: slot.view)
            }
        }
    }

    /// Checks every regular, non-hidden file in `directory` in byte order of the names by decoding
    /// it. Returns the library and one warning line per file skipped (and one if the default had
    /// to be used).
    /// Throws only when the decoded slots' memory is not there.
    public static func load(directory: String, outputSize: FrameSize, fit: FitMode) throws(SystemError) -> (BackgroundLibrary, [String]) {
        let report = try loadReporting(directory: directory, outputSize: outputSize, fit: fit)
        return (report.library, report.skipped + report.notices)
    }

    /// `load`, with the lines kept apart: `skipped` has one line per file left out (a file each),
    /// `notices` the lines about the folder as a whole (unreadable, no usable image).
    public static func loadReporting(directory: String, outputSize: FrameSize, fit: FitMode) throws(SystemError)
        -> (library: BackgroundLibrary, skipped: [String], notices: [String]) {
        var skipped: [String] = []
        var entries: [BackdropEntry] = []
        var notices: [String] = []
        switch listFiles(directory) {
        case .failure(let error):
            notices.append("backgrounds: cannot read folder \(directory): \(error.errno.description)")
        case .success(let names):
            let decoder = ImageDecoder()
            for name in names {
                let path = directory + "/" + name
                if bk_is_directory(path) == 1 { continue }
                if entries.count == maximumImages {
                    skipped.append("backgrounds: \(path): skipped, only the first \(maximumImages) images are kept")
                    continue
                }
                do throws(ImageError) {
                    _ = try BackgroundImage.check(path: path, covering: outputSize, decoder: decoder)
                    entries.append(BackdropEntry(name: name, origin: .file(path: path)))
                } catch {
                    skipped.append("backgrounds: skipped " + error.message)
                }
            }
        }
        if entries.isEmpty {
            notices.append("backgrounds: no usable image in \(directory); showing the built-in gradient")
            return (try builtIn(outputSize: outputSize, fit: fit), skipped, notices)
        }
        return (try BackgroundLibrary(entries: entries, outputSize: outputSize, fit: fit, usesBuiltInDefault: false), skipped, notices)
    }

    /// One image as a library of one (`backdrop render --background IMAGE`); errors are the caller's to report.
    public static func single(path: String, outputSize: FrameSize, fit: FitMode) throws(ImageError) -> BackgroundLibrary {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        _ = try BackgroundImage.check(path: path, covering: outputSize, decoder: ImageDecoder())
        do throws(SystemError) {
            return try BackgroundLibrary(entries: [BackdropEntry(name: name, origin: .file(path: path))], outputSize: outputSize,
                                         fit: fit, usesBuiltInDefault: false)
        } catch {
            throw .outOfMemory(path: path, width: outputSize.width, height: outputSize.height)
        }
    }

    /// Only the built-in gradient (no background folder configured).
    public static func builtIn(outputSize: FrameSize, fit: FitMode = .fill) throws(SystemError) -> BackgroundLibrary {
        try BackgroundLibrary(entries: [BackdropEntry(name: "built-in", origin: .builtIn)], outputSize: outputSize,
                          fit: fit, usesBuiltInDefault: true)
    }

    /// Entry names of `directory`, hidden ones (leading '.') left out, sorted by their bytes so the
    /// order does not depend on locale or Unicode normalisation.
    static func listFiles(_ directory: String) -> Result<[String], SystemError> {
        var names: [String]
        do throws(SystemError) {
            names = try DirectoryListing.names(in: directory).filter { $0.utf8.first != UInt8(ascii: ".") }
        } catch {
            return .failure(error)
        }
        names.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return .success(names)
    }
}
