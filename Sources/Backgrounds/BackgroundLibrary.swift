import CKernel
import Frames
import ImageCodec
import KernelIO
import Looks

/// The ring of backdrops, with a memory budget that fits a 1 GB board: only `residentSlots`
/// output-sized images are decoded at a time (the current one, the next and the previous one
/// ready for a button press, and the one shown before, which compute may still be blending over).
/// 64 decoded 1080p backdrops would hold 512 MiB; four hold 32 MiB (133 MiB at 4K), whatever the
/// folder holds. The files stay where they are (the import never changes a generation it has
/// switched to) and are decoded again when they come next in line.
///
/// Two ways through the ring:
/// - live (`aim`, `nextFill`, `filled`; the I/O thread with a `BackdropWorker`): a press to a
///   neighbour decoded ahead is a pointer change at once; any other press only moves the target,
///   and the worker decodes it while the frames go on over the backdrop shown. Presses in a burst
///   coalesce: only the last target is decoded (and one neighbour whose decode had begun). A slot
///   compute may still read (the one shown until the last switch, while the frame handed off
///   before it is in compute) is refilled only once a later frame was handed off.
/// - at once (`next`, `previous`, `select`; offline tools and tests): the new image and its
///   neighbours are decoded in the call (`lastSwitch` says how long each part took).
/// The frame path never decodes.
///
/// Loading never fails as a whole: every file is decoded once at load, and files that cannot be
/// used are skipped and reported as warning lines (file name and reason) for the caller to log; the
/// library itself does not log. When no file is usable (missing or empty folder, every file bad)
/// the library holds the built-in gradient (`usesBuiltInDefault`) plus a warning saying so,
/// because the box must always show something.
///
/// Not thread-safe: move through the ring from one thread (the I/O thread); the worker touches
/// only the slot a `BackdropFill` lends it. A view from `current` stays valid until two more
/// switches have happened (its slot is the last to be refilled); `view(at:)` of an image not
/// resident is valid until the next such call.
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
    /// Live: the image asked for last (`currentIndex` until its decode lands).
    public private(set) var target = 0
    /// Live: the slot being filled by the worker (it holds nothing meanwhile).
    private var filling: Int? = nil
    /// Live: the slot shown until the last switch, which compute may still read until
    /// `pairsHandedOff` reaches `until`.
    private var busy: (slot: Int, until: Int)? = nil
    /// Live: `pairsHandedOff` when the current image was published.
    private var shownSince = 0
    private var inspection: BackdropSlot?
    private let decoder = ImageDecoder()
    private var problems: [String] = []
    /// The backdrop's look, applied once as each image is decoded into a slot (`BackdropFill`).
    public private(set) var look: PreparedLook? = nil

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
    /// The name of the image asked for last (shown, or about to be once decoded).
    public var targetName: String { entries[target].name }
    /// A press whose image is still being decoded.
    public var switchPending: Bool { target != currentIndex }
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

    /// At once (start-up, offline commands): takes `look` for the backdrops and decodes the
    /// current one and its neighbours again with it, on the calling thread. Not while a worker
    /// fill is out (the live ring's slots are then not all this thread's).
    public func setLook(_ look: PreparedLook?) {
        precondition(filling == nil, "setLook during a worker fill")
        self.look = look
        for slot in slots { slot.index = -1 }
        show(currentIndex, after: currentIndex)
    }

    // MARK: live (with a BackdropWorker)

    /// Live: `steps` along the ring from the target (a burst of presses adds up). True when the
    /// new target is current now (resident: publish `current`, then `published`); false when it
    /// waits for its decode (`nextFill`), which `filled` later makes current.
    /// - handedOff: the runner's `pairsHandedOff` now.
    public func aim(_ steps: Int, handedOff: Int) -> Bool {
        let count = entries.count
        target = ((target + steps) % count + count) % count
        guard target != currentIndex else { return false }
        guard let held = slots.firstIndex(where: { $0.index == target }) else { return false }
        makeCurrent(slot: held, handedOff: handedOff)
        return true
    }

    /// Live: the current image's view went to compute in the generation published now.
    public func published(handedOff: Int) { shownSince = handedOff }

    /// Live: the next decode the worker should do, nil when none is needed or possible yet (one at
    /// a time; a slot compute may read is not taken). Order: the target, then its next and previous
    /// neighbours. The slot lent is the worker's until `filled`.
    /// Called on every wake of the loop: allocates nothing unless it returns a fill.
    public func nextFill(handedOff: Int) -> BackdropFill? {
        guard filling == nil else { return nil }
        if let held = busy, handedOff >= held.until { busy = nil }
        for rank in 0..<3 {
            let index = wanted(rank)
            if slots.contains(where: { $0.index == index }) { continue }
            // Never the slot on screen or one compute may read; rather one holding nothing wanted,
            // else one holding a neighbour of lower rank than this one.
            var chosen: Int? = nil, chosenRank = -1
            for slot in slots.indices where slot != currentSlot && slot != busy?.slot {
                let held = rankWanted(slots[slot].index)
                if held == nil { chosen = slot; break }
                if let held, held > rank, held > chosenRank { chosen = slot; chosenRank = held }
            }
            guard let chosen else { return nil }
            slots[chosen].index = -1
            filling = chosen
            return BackdropFill(index: index, slot: slots[chosen], origin: entries[index].origin, fit: fit, look: look)
        }
        return nil
    }

    /// What the live ring wants resident, by rank: the target, its next, its previous.
    private func wanted(_ rank: Int) -> Int {
        let count = entries.count
        switch rank {
        case 0: return target
        case 1: return (target + 1) % count
        default: return (target + count - 1) % count
        }
    }

    /// The best (lowest) rank at which `index` is wanted, nil when it is not.
    private func rankWanted(_ index: Int) -> Int? {
        for rank in 0..<3 where wanted(rank) == index { return rank }
        return nil
    }

    /// Live: the worker finished `fill`; true when it made the target current (publish `current`,
    /// then `published`). A problem decoding it is returned by `takeProblems`.
    public func filled(_ fill: BackdropFill, problem: String?, handedOff: Int) -> Bool {
        guard let slot = filling, slots[slot] === fill.slot else { preconditionFailure("backdrop fill not from this library") }
        filling = nil
        slots[slot].index = fill.index
        if let problem { problems.append(problem) }
        guard fill.index == target, target != currentIndex else { return false }
        makeCurrent(slot: slot, handedOff: handedOff)
        return true
    }

    private func makeCurrent(slot: Int, handedOff: Int) {
        if let held = busy, handedOff >= held.until { busy = nil }
        // Compute got the old view only if a frame was handed off since it was published; the
        // frame in compute then is done once one more is handed off (one frame at a time).
        if handedOff > shownSince { busy = (currentSlot, handedOff + 1) }
        currentSlot = slot
        currentIndex = slots[slot].index
    }

    // MARK: at once

    /// Makes `index` current, then decodes its neighbours into slots that hold neither them, nor
    /// the image shown until now.
    private func show(_ index: Int, after previous: Int) {
        let start = MonotonicClock.nowNanoseconds()
        let following = (index + 1) % entries.count, preceding = (index + entries.count - 1) % entries.count
        let wanted = [index, following, preceding, previous]
        currentIndex = index
        target = index
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
        if let problem = BackdropFill.draw(entries[index].origin, fit: fit, decoder: decoder, into: slot.view, look: look) {
            problems.append(problem)
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
    /// `giveUp` is asked before each file (a rescan stopped by the service's stop gives up there).
    public static func loadReporting(directory: String, outputSize: FrameSize, fit: FitMode,
                                     giveUp: () -> Bool = { false }) throws(SystemError)
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
                if giveUp() { break }
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
        if giveUp() {
            // Nobody will show it: no decode of the first images into their slots.
            notices.append("backgrounds: reading \(directory) given up (stopping)")
            return (try builtIn(outputSize: outputSize, fit: fit), skipped, notices)
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
