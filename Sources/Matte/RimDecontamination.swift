import Frames
import KernelIO

/// Takes the camera's own background out of the colour of the matte's partial pixels.
///
/// The compositor blends the camera colour as captured, so a rim pixel with alpha a carries
/// a x (its colour), and at the edge that colour is partly, or all, the room behind the subject:
/// a halo of corridor around an arm. Here each partial pixel (0 < a < 255) finds the nearest
/// opaque (255) and clear (0) pixels along its row, then its column, within `lookout`; their
/// colours are a local subject colour F and background colour B. The pixel's own colour I is
/// read as a mix of the two, t = (I - B).(F - B) / |F - B|^2 clamped to 0...1, and the background
/// share is swapped for the subject: I + (1 - t)(F - B). A pixel that is already subject colour
/// (t = 1) keeps its colour; one that is pure background becomes F; the part of I off the F-B
/// line (texture, noise) is kept at unit gain, unlike F = (I - (1 - a)B) / a, which divides by a
/// small a and by a matte alpha that need not match the colour's own mixing. Where F and B are
/// alike (below ColourEdges.minimumContrast) there is nothing to remove and the pixel is left.
///
/// Reads the camera frame and the finished alpha and writes nothing into either: the corrected
/// pixels go into `patch` (RimPatch), which MatteEngine.decontaminate(into:) lays into a copy, so
/// the captured frame stays as it was (photo layers and recordings keep the raw camera colour, and
/// the matte of a replayed recording decides from the same colour as the box did). Only the rim is
/// touched: alpha is skipped eight pixels at a time where it is all 0 or 255, and each run of
/// partial pixels along a row takes its left and right confident pixels from the run's two ends
/// (every pixel between is partial); up its column, each partial pixel takes the nearest confident
/// pixel above from the one over it (ColumnSearch), so only the search down walks pixel by pixel.
/// The share of background is measured on the colours as shown (RGB; YCbCr frames through the
/// compositor's conversion), the swap is done in the frame's own channels (R, G, B or Y, Cb, Cr:
/// it is affine, so it commutes with the BT.601 conversion). Opaque pixels are never changed:
/// YUYV chroma, shared by a pixel pair, is changed only when the other pixel of the pair is not
/// opaque (two partial pixels get the mean of their two estimates); NV12 chroma, shared by 2x2,
/// is left. Allocates nothing after `init`. Not thread-safe (one per matte engine).
final class RimDecontamination {
    let size: FrameSize
    /// How far a partial pixel looks for opaque and clear pixels, pixels: set by the engine from
    /// the feather radius (a box of radius r leaves partial pixels up to 2r + 1 from solid ones).
    var lookout: Int = 8
    /// The last `run`'s corrections.
    var patch: RimPatch
    /// One run's subject, background and own colours, corrected together (RimLanes).
    let lanes: RimLanes
    /// What the column searches have read this frame.
    private let columns: ColumnMemo
    /// The current row's runs with solved pixels: start, end, start, end...
    private let runs: UnsafeMutablePointer<Int32>
    /// Two chroma bytes of 128: what an NV12 frame without its chroma plane reads (ColourRow).
    private let neutralChroma: UnsafePointer<UInt8>

    init(size: FrameSize) throws(SystemError) {
        self.size = size
        let laneCount = RimLanes.storageCount(capacity: size.width)
        let memoCount = ColumnMemo.storageCount(width: size.width)
        // A row holds at most width / 2 + 1 runs (a confident pixel between any two).
        patch = try RimPatch(size: size, workingCount: laneCount + memoCount + size.width + 5)
        lanes = RimLanes(storage: patch.working, capacity: size.width)
        columns = ColumnMemo(storage: patch.working + laneCount, width: size.width)
        runs = patch.working + laneCount + memoCount
        let neutral = UnsafeMutableRawPointer(runs + size.width + 4).assumingMemoryBound(to: UInt8.self)
        neutral.initialize(repeating: 128, count: 4)
        neutralChroma = UnsafePointer(neutral)
    }

    /// `colour` the camera frame, `alpha` its finished .alpha8 matte (both of `size`): `patch`
    /// becomes the rim's corrected pixels.
    func run(colour: ImageView, alpha: ImageView) {
        precondition(colour.size == size && alpha.size == size)
        guard colour.format != .z16 && colour.format != .alpha8 else { return patch.clear() }
        let width = size.width
        // Locals, not the class's properties, inside the loops: no dynamic exclusivity checks.
        let lookout = self.lookout
        let lanes = self.lanes
        let runs = self.runs
        let ycbcr = colour.format == .yuyv || colour.format == .nv12
        var writer = patch.startWriting()
        defer { patch.finish(writer) }
        columns.reset()
        let search = ColumnSearch(alpha: alpha, height: size.height, lookout: lookout, memo: columns)
        let frame = ColourFrame(colour, neutral: neutralChroma)
        for y in 0..<size.height {
            writer.startRow(y)
            let row = UnsafePointer(alpha.row(y).assumingMemoryBound(to: UInt8.self))
            let pixels = frame.row(y)
            var solved = 0
            var runCount = 0
            var searchedCount = 0
            // The partial pixels of 64 columns from `base` as bits (PartialWindow): each run is
            // found with two bit scans, so the scan branches once a run, not once a word or byte
            // (the loops' exits were most of its mispredicted branches).
            var base = 0
            var window = Self.partialWindow(row, base, width: width)
            while true {
                if window == 0 {
                    base &+= 64
                    guard base < width else { break }
                    window = Self.partialWindow(row, base, width: width)
                    continue
                }
                let x = base &+ window.trailingZeroBitCount
                // Confident bits at and after x; none: the run goes on past the window.
                let confident = ~window & (UInt64.max &<< UInt64(window.trailingZeroBitCount))
                let end: Int
                if confident != 0 {
                    let offset = confident.trailingZeroBitCount
                    end = base &+ offset
                    window &= UInt64.max &<< UInt64(offset)
                } else {
                    end = Self.confidentFrom(row, base &+ 64, width: width)
                    base = end & ~63
                    window = base < width ? Self.partialWindow(row, base, width: width) & (UInt64.max &<< UInt64(end & 63)) : 0
                }
                // Runs whose pixels search their columns are listed with their end as ~end and
                // gathered together after the scan (gatherSearched).
                var listedEnd = Int32(truncatingIfNeeded: end)
                // The four conditions as one, not four branches that each went either way.
                let leftOpaque = x > 0 && row[x &- 1] == 255
                let rightOpaque = row[min(end, width &- 1)] == 255
                let inside = Self.flag(x > 0) & Self.flag(end < width) & Self.flag(end &- x <= lookout)
                if inside & (Self.flag(leftOpaque) ^ Self.flag(rightOpaque)) != 0 {
                    // Both ends in reach of every pixel, one opaque and one clear (the subject's
                    // sides, most of the rim): the same two references for the whole run.
                    solved = gatherRun(from: x, to: end, leftOpaque: leftOpaque, y: y, pixels: pixels, ycbcr: ycbcr,
                                       search: search, solved: solved)
                } else {
                    listedEnd = ~listedEnd
                    searchedCount &+= 1
                }
                runs[2 * runCount] = Int32(truncatingIfNeeded: x)
                runs[2 * runCount + 1] = listedEnd
                runCount += 1
            }
            if searchedCount > 0 {
                let searchedFrom = solved
                solved = gatherSearched(runs: runs, count: runCount, y: y, row: row, frame: frame, ycbcr: ycbcr,
                                        search: search, solved: solved)
                lanes.referFromColours(from: searchedFrom, to: solved, ycbcr: ycbcr)
            }
            // A whole row's rim through the lanes at once: runs are short (a few pixels at the
            // subject's sides), and solving each alone was mostly the lanes' set-up and padding.
            guard solved > 0 else { continue }
            lanes.solve(count: solved, ycbcr: ycbcr)
            emitRow(runs: runs, count: runCount, y: y, row: row, colour: colour, into: &writer)
        }
    }

    @inline(__always)
    private static func flag(_ condition: Bool) -> Int { condition ? 1 : 0 }

    @inline(__always)
    private static func isPartial(_ a: UInt8) -> Bool { a &+ 1 > 1 }

    /// No partial pixel among x ..< x + 64: the four a + 1 ORed before the one mask (a partial
    /// byte has a bit above bit 0 in a + 1, which the OR keeps).
    @inline(__always)
    private static func noPartial64(_ row: UnsafePointer<UInt8>, _ x: Int) -> Bool {
        let raw = UnsafeRawPointer(row + x)
        @inline(__always) func next(_ at: Int) -> SIMD16<UInt8> { raw.loadUnaligned(fromByteOffset: at, as: SIMD16<UInt8>.self) &+ 1 }
        return ((next(0) | next(16) | next(32) | next(48)) & 0xFE).isAllZero
    }

    /// Bit k set where alpha base + k (of 64, those before `width`) is partial. A window with
    /// none is the common case and is told by the lanes; the others take each word's partial
    /// bytes' bit 7 (partialBits) gathered into one byte by a multiply (bit 7 of byte k lands in
    /// bit 56 + k, no two partial products meeting).
    @inline(__always)
    private static func partialWindow(_ row: UnsafePointer<UInt8>, _ base: Int, width: Int) -> UInt64 {
        guard base &+ 64 <= width else {
            var bits: UInt64 = 0
            for k in 0..<(width &- base) where isPartial(row[base &+ k]) { bits |= 1 &<< UInt64(k) }
            return bits
        }
        if noPartial64(row, base) { return 0 }
        var bits: UInt64 = 0
        for word in 0..<8 {
            let gathered = ((partialBits(row, base &+ word &* 8) &>> 7) &* 0x0102_0408_1020_4080) &>> 56
            bits |= gathered &<< UInt64(word &* 8)
        }
        return bits
    }

    /// Bit 7 of byte k set where alpha x + k (of eight) is partial, neither 0 nor 255 (a byte
    /// whose bits are not all alike).
    @inline(__always)
    private static func partialBits(_ row: UnsafePointer<UInt8>, _ x: Int) -> UInt64 {
        let word = UInt64(littleEndian: UnsafeRawPointer(row + x).loadUnaligned(as: UInt64.self))
        let unlike = (word ^ (word >> 1)) & 0x7F7F_7F7F_7F7F_7F7F
        return (unlike &+ 0x7F7F_7F7F_7F7F_7F7F) & 0x8080_8080_8080_8080
    }

    /// The first confident (0 or 255) pixel at or after `x`, or `width`.
    @inline(__always)
    private static func confidentFrom(_ row: UnsafePointer<UInt8>, _ start: Int, width: Int) -> Int {
        var x = start
        while x + 8 <= width {
            let confident = ~partialBits(row, x) & 0x8080_8080_8080_8080
            if confident != 0 { return x + confident.trailingZeroBitCount >> 3 }
            x += 8
        }
        while x < width && isPartial(row[x]) { x += 1 }
        return x
    }

    /// The nearest opaque or clear pixel from (x, y) up or down its column, within `lookout`,
    /// as a mark: row << 1 | 1 when it is opaque, row << 1 when clear, negative for none.
    /// Queries come in rising rows within a frame. Up is kept, not searched: every partial pixel
    /// of every run passes through `carryAbove` (or `above`), which sets its column's nearest
    /// confident pixel above it where the pixel over it is confident; where that one is partial
    /// too it was itself carried the row before, and its nearest confident pixel above is this
    /// pixel's. Down, each column remembers what it has read (ColumnMemo), so no row of it is
    /// read twice. A value of locals (the memo's rows, the alpha plane), not the class's
    /// properties, so the searches keep them in registers.
    private struct ColumnSearch {
        let base: UnsafePointer<UInt8>
        let stride: Int
        let height: Int
        let lookout: Int
        let up, downFirst, downUntil: UnsafeMutablePointer<Int32>

        init(alpha: ImageView, height: Int, lookout: Int, memo: ColumnMemo) {
            base = UnsafePointer(alpha.base.assumingMemoryBound(to: UInt8.self))
            stride = alpha.bytesPerRow
            self.height = height
            self.lookout = lookout
            up = memo.up
            downFirst = memo.downFirst
            downUntil = memo.downUntil
        }

        /// The mark of a confident alpha `a` at `row` (0 and 255 differ in bit 0).
        @inline(__always)
        static func mark(row: Int, _ a: UInt8) -> Int32 {
            Int32(truncatingIfNeeded: row &<< 1) | Int32(a & 1)
        }

        /// Keeps `up` for the partial pixels start..<end of row y whose references are not
        /// searched (every partial pixel must pass here or through `above`).
        @inline(__always)
        func carryAbove(from start: Int, to end: Int, y: Int) {
            guard y > 0 else { return }
            let over = base + (y &- 1) &* stride
            for x in start..<end where RimDecontamination.isConfident(over[x]) { up[x] = Self.mark(row: y &- 1, over[x]) }
        }

        /// The mark of the nearest confident pixel above (x, y) within `lookout`, or negative;
        /// `over` is row y - 1 of alpha (nil for y = 0). Keeps `up` as `carryAbove` does.
        @inline(__always)
        func above(x: Int, y: Int, over: UnsafePointer<UInt8>?) -> Int {
            guard let over else { return -1 }
            let a = over[x]
            if RimDecontamination.isConfident(a) {
                let mark = Self.mark(row: y &- 1, a)
                up[x] = mark
                return Int(mark)
            }
            let last = Int(up[x])
            return last &>> 1 >= y &- lookout ? last : -1
        }

        /// The mark of the nearest confident pixel below (x, y) within `lookout`, or negative.
        @inline(__always)
        func below(x: Int, y: Int) -> Int {
            let steps = min(lookout, height &- 1 &- y)
            guard steps > 0 else { return -1 }
            return below(x: x, y: y, bottom: y &+ steps)
        }

        /// `below(x:y:)` with its last row, `bottom` (> y), worked out by the caller once a row.
        @inline(__always)
        func below(x: Int, y: Int, bottom: Int) -> Int {
            // Rows from y + 1 before `downUntil` were read; `downFirst` the mark of the first
            // confident one after them (-1 none, i.e. none of them is).
            let first = Int(downFirst[x])
            if first &>> 1 > y { return first &>> 1 <= bottom ? first : -1 }
            var row = first >= 0 ? y &+ 1 : max(Int(downUntil[x]), y &+ 1)
            var at = base + (row &* stride &+ x)
            while row <= bottom {
                let a = at.pointee
                if RimDecontamination.isConfident(a) {
                    let mark = Self.mark(row: row, a)
                    downFirst[x] = mark
                    return Int(mark)
                }
                row &+= 1
                at += stride
            }
            downFirst[x] = -1
            downUntil[x] = Int32(truncatingIfNeeded: bottom &+ 1)
            return -1
        }

        /// Gives each pixel of from..<to of row y that has both kinds of reference (row `ends`,
        /// up, down) the next lane from `solved` on, the others -1, in `slot`; returns the lanes'
        /// new count. Up is asked of every pixel (it keeps the column's memory), down only where
        /// the row and up leave a kind missing. In at most three stretches, split where the
        /// row ends' reach ends, each with one set of row kinds: what the loop keeps is one
        /// value, not the two ends' reaches and kinds.
        @inline(__always)
        func decide(from start: Int, to end: Int, y: Int, over: UnsafePointer<UInt8>?, ends: RimDecontamination.RowEnds,
                    slot: UnsafeMutablePointer<Int32>, solved first: Int) -> Int {
            let inner = min(ends.leftUntil, ends.rightFrom), outer = max(ends.leftUntil, ends.rightFrom)
            let bottom = y &+ min(lookout, height &- 1 &- y)
            var solved = first
            if let over {
                solved = decide(from: start, to: inner, rowKinds: ends.kinds(start), y: y, over: over, bottom: bottom, slot: slot, solved: solved)
                solved = decide(from: inner, to: outer, rowKinds: ends.kinds(inner), y: y, over: over, bottom: bottom, slot: slot, solved: solved)
                solved = decide(from: outer, to: end, rowKinds: ends.kinds(outer), y: y, over: over, bottom: bottom, slot: slot, solved: solved)
            } else {
                for x in start..<end {
                    settle(x, y: y, kinds: ends.kinds(x), bottom: bottom, slot: slot, solved: &solved)
                }
            }
            return solved
        }

        /// `decide` for pixels from..<to of a row y > 0 (`over` its row y - 1) whose row ends
        /// give all of them `rowKinds`; `bottom` as `below` takes it.
        @inline(__always)
        private func decide(from start: Int, to end: Int, rowKinds: Int, y: Int, over: UnsafePointer<UInt8>, bottom: Int,
                            slot: UnsafeMutablePointer<Int32>, solved first: Int) -> Int {
            var solved = first
            let reach = y &- lookout
            let aboveMark = Int32(truncatingIfNeeded: (y &- 1) &<< 1)
            var x = start
            while x < end {
                var kinds = rowKinds
                let a = over[x]
                if RimDecontamination.isConfident(a) {
                    // Carried as `above` does.
                    let mark = aboveMark | Int32(a & 1)
                    up[x] = mark
                    kinds |= 2 &- Int(a & 1)
                } else {
                    let last = Int(up[x])
                    if last &>> 1 >= reach { kinds |= 2 &- (last & 1) }
                }
                settle(x, y: y, kinds: kinds, bottom: bottom, slot: slot, solved: &solved)
                x &+= 1
            }
            return solved
        }

        /// Pixel x of row y, with the reference kinds its row and the rows above gave it: the
        /// column below searched only when those lack a kind, then its slot, its index among
        /// the row's solved pixels or -1.
        @inline(__always)
        private func settle(_ x: Int, y: Int, kinds known: Int, bottom: Int, slot: UnsafeMutablePointer<Int32>,
                            solved: inout Int) {
            var kinds = known
            if kinds != 3 && bottom > y {
                let down = below(x: x, y: y, bottom: bottom)
                if down >= 0 { kinds |= 2 &- (down & 1) }
            }
            let both = kinds == 3
            slot[x] = both ? Int32(truncatingIfNeeded: solved) : -1
            if both { solved &+= 1 }
        }
    }

    @inline(__always)
    fileprivate static func isConfident(_ a: UInt8) -> Bool { a &+ 1 <= 1 }

    /// The partial pixels from..<to of row y, between an opaque and a clear pixel both in reach of
    /// every one of them (the left one opaque when `leftOpaque`), into the lanes from index
    /// `solved` on: those two are every pixel's references. Returns the lanes' new count;
    /// `lanes.slot[x]` is each pixel's lane.
    @inline(never)
    private func gatherRun(from start: Int, to end: Int, leftOpaque: Bool, y: Int, pixels: ColourRow, ycbcr: Bool,
                           search: ColumnSearch, solved first: Int) -> Int {
        search.carryAbove(from: start, to: end, y: y)
        let count = end &- start
        let opaque = leftOpaque ? start &- 1 : end
        let clear = leftOpaque ? end : start &- 1
        lanes.fill(from: first, count: count, subject: pixels.channels(opaque), ground: pixels.channels(clear), ycbcr: ycbcr)
        let c0 = lanes.own0 + first, c1 = lanes.own1 + first, c2 = lanes.own2 + first
        let slots = lanes.slot + start
        for k in 0..<count {
            let own = pixels.channels(start &+ k)
            c0[k] = own.0
            c1[k] = own.1
            c2[k] = own.2
            slots[k] = Int32(truncatingIfNeeded: first &+ k)
        }
        return first &+ count
    }

    /// The pixels of row y's listed runs (start, ~end) that search their columns, into the lanes
    /// from index `solved` on; returns the lanes' new count, `lanes.slot[x]` each pixel's lane
    /// (-1 without references), and lists each run back as (start, end), or empty (start, start)
    /// when none of its pixels found both references. Per pixel, as before the run form: the
    /// nearest confident pixel left, right, up, down in that order, the first opaque one the
    /// subject, the first clear one the background. Out of line and once a row. A run is decided
    /// before it is gathered (`decide`): most of these pixels find one kind of reference only and
    /// are left as they are, and the loop that only asks whether a pixel has both kinds keeps its
    /// state in registers, where the one that also placed the references spilled it at every
    /// pixel (a hundred instructions a pixel). The searches answer the same when asked again
    /// (up is carried, down remembered), so the few solved pixels ask them again for the places.
    @inline(never)
    private func gatherSearched(runs: UnsafeMutablePointer<Int32>, count runCount: Int, y: Int, row: UnsafePointer<UInt8>,
                                frame: ColourFrame, ycbcr: Bool, search: ColumnSearch, solved first: Int) -> Int {
        let lookout = search.lookout
        let width = size.width
        let slot = lanes.slot
        var solved = first
        let over: UnsafePointer<UInt8>? = y > 0 ? search.base + (y &- 1) &* search.stride : nil
        for r in 0..<runCount {
            let listedEnd = runs[2 &* r &+ 1]
            guard listedEnd < 0 else { continue }
            let start = Int(runs[2 &* r]), end = Int(~listedEnd)
            // A row end's kind (bit 0 opaque, bit 1 clear) and the pixels it is in reach of:
            // those before `leftUntil` (the left end) and from `rightFrom` (the right end).
            let leftKind = start > 0 ? (row[start &- 1] == 255 ? 1 : 2) : 0
            let rightKind = end < width ? (row[end] == 255 ? 1 : 2) : 0
            let leftUntil = start > 0 ? min(end, start &+ lookout) : start
            let rightFrom = end < width ? max(start, end &- lookout) : end
            let ends = RowEnds(leftUntil: leftUntil, leftKind: leftKind, rightFrom: rightFrom, rightKind: rightKind)
            let solvedBefore = solved
            solved = search.decide(from: start, to: end, y: y, over: over, ends: ends, slot: slot, solved: solved)
            if solved > solvedBefore {
                gatherDecided(from: start, to: end, y: y, over: over, ends: ends, frame: frame, ycbcr: ycbcr, search: search)
            }
            runs[2 &* r &+ 1] = Int32(truncatingIfNeeded: solved > solvedBefore ? end : start)
        }
        return solved
    }

    /// A searched run's two row ends: kind 1 opaque, 2 clear, 0 none (the frame's edge), and the
    /// run's pixels each is in reach of (before `leftUntil`, from `rightFrom`).
    fileprivate struct RowEnds {
        let leftUntil, leftKind, rightFrom, rightKind: Int

        /// The kinds of reference pixel x has from the row.
        @inline(__always)
        func kinds(_ x: Int) -> Int { (x < leftUntil ? leftKind : 0) | (x >= rightFrom ? rightKind : 0) }
    }

    /// The references of the pixels of from..<to that `decide` gave a lane (`lanes.slot[x]`):
    /// left, right, up, down in that order, the first opaque one the subject, the first clear one
    /// the background, as the pixel-by-pixel search took them.
    @inline(never)
    private func gatherDecided(from start: Int, to end: Int, y: Int, over: UnsafePointer<UInt8>?, ends: RowEnds,
                               frame: ColourFrame, ycbcr: Bool, search: ColumnSearch) {
        let slot = lanes.slot
        let pixels = frame.row(y)
        for x in start..<end {
            let lane = Int(slot[x])
            guard lane >= 0 else { continue }
            let up = search.above(x: x, y: y, over: over)
            var kinds = ends.kinds(x)
            if up >= 0 { kinds |= 2 &- (up & 1) }
            let down = kinds != 3 ? search.below(x: x, y: y) : -1
            var subjectX = -1, subjectY = y, groundX = -1, groundY = y
            @inline(__always) func offer(opaque: Bool, x atX: Int, y atY: Int) {
                if opaque {
                    if subjectX < 0 {
                        subjectX = atX
                        subjectY = atY
                    }
                } else if groundX < 0 {
                    groundX = atX
                    groundY = atY
                }
            }
            if x < ends.leftUntil { offer(opaque: ends.leftKind == 1, x: start &- 1, y: y) }
            if x >= ends.rightFrom { offer(opaque: ends.rightKind == 1, x: end, y: y) }
            if up >= 0 { offer(opaque: up & 1 != 0, x: x, y: up &>> 1) }
            if down >= 0 { offer(opaque: down & 1 != 0, x: x, y: down &>> 1) }
            lanes.setColours(lane, subject: frame.row(subjectY).channels(subjectX),
                             ground: frame.row(groundY).channels(groundX), own: pixels.channels(x))
        }
    }

    /// The patch entries of row y's runs (start, end; empty where gatherSearched found no pixel
    /// both references), once the lanes are solved: once a row, the format asked once.
    @inline(never)
    private func emitRow(runs: UnsafeMutablePointer<Int32>, count runCount: Int, y: Int, row: UnsafePointer<UInt8>,
                         colour: ImageView, into writer: inout RimPatch.Writer) {
        // A local copy, put back once: through the inout each entry read the writer's count and
        // memory back from where the caller keeps it.
        var patch = writer
        defer { writer = patch }
        let slots = lanes.slot
        let results = lanes.result
        // A pixel's corrected channels packed as RimLanes gives them (c0 | c1 << 8 | c2 << 16),
        // or -1 when it has none: plain integers, not optional vectors.
        @inline(__always) func estimate(_ x: Int) -> Int32 {
            let slot = Int(slots[x])
            return slot >= 0 ? results[slot] : -1
        }
        guard colour.format == .yuyv else {
            for r in 0..<runCount {
                for x in Int(runs[2 &* r])..<max(Int(runs[2 &* r]), Int(runs[2 &* r &+ 1])) {
                    let value = estimate(x)
                    if value >= 0 { patch.append(x: x, y: y, value: UInt32(truncatingIfNeeded: value)) }
                }
            }
            return
        }
        // YUYV: a pair shares its chroma. Beside an opaque pixel it stays (opaque pixels never
        // change); beside a clear one it is the partial pixel's; for two partial pixels it is the
        // mean of what each wants (its estimate, or the chroma as it is when it has none), the
        // nearest one chroma gets to both. At most one entry of a pair writes the chroma
        // (RimPatch relies on it).
        let pixels = colour.row(y).assumingMemoryBound(to: UInt8.self)
        let width = size.width
        for r in 0..<runCount {
            let end = Int(runs[2 &* r &+ 1])
            var x = Int(runs[2 &* r])
            while x < end {
                if x & 1 == 0 && x &+ 1 < end {
                    let even = estimate(x)
                    let odd = estimate(x &+ 1)
                    if even >= 0 || odd >= 0 {
                        let pair = pixels + (x &<< 1)
                        let rawCb = Int32(pair[1]), rawCr = Int32(pair[3])
                        let evenCb = even >= 0 ? (even &>> 8) & 0xFF : rawCb
                        let evenCr = even >= 0 ? (even &>> 16) & 0xFF : rawCr
                        let oddCb = odd >= 0 ? (odd &>> 8) & 0xFF : rawCb
                        let oddCr = odd >= 0 ? (odd &>> 16) & 0xFF : rawCr
                        let chroma = UInt32(truncatingIfNeeded: (evenCb &+ oddCb &+ 1) >> 1) << 8
                            | UInt32(truncatingIfNeeded: (evenCr &+ oddCr &+ 1) >> 1) << 16 | RimPatch.chromaFlag
                        if even >= 0 {
                            patch.append(x: x, y: y, value: UInt32(truncatingIfNeeded: even & 0xFF) | chroma)
                            if odd >= 0 { patch.append(x: x &+ 1, y: y, value: UInt32(truncatingIfNeeded: odd)) }
                        } else {
                            patch.append(x: x &+ 1, y: y, value: UInt32(truncatingIfNeeded: odd & 0xFF) | chroma)
                        }
                    }
                    x &+= 2
                    continue
                }
                // The partner is confident (or outside the frame).
                let clean = estimate(x)
                if clean >= 0 {
                    let partner = x ^ 1
                    let other = partner < width ? row[partner] : 0
                    patch.append(x: x, y: y, value: UInt32(truncatingIfNeeded: clean) | (other == 255 ? 0 : RimPatch.chromaFlag))
                }
                x &+= 1
            }
        }
    }

    /// The pixel's three channels in the frame's own order (R G B, B G R, or Y Cb Cr). Internal,
    /// not private: RimPatchTests' full-frame reference reads pixels through it.
    @inline(__always)
    static func channels(_ view: ImageView, _ x: Int, _ y: Int) -> SIMD3<Int32> {
        let row = view.row(y).assumingMemoryBound(to: UInt8.self)
        switch view.format {
        case .rgb24:
            let p = row + 3 * x
            return SIMD3(Int32(p[0]), Int32(p[1]), Int32(p[2]))
        case .xrgb8888, .argb8888:
            let p = row + 4 * x
            return SIMD3(Int32(p[0]), Int32(p[1]), Int32(p[2]))
        case .yuyv:
            let pair = row + 4 * (x >> 1)
            return SIMD3(Int32(row[2 * x]), Int32(pair[1]), Int32(pair[3]))
        case .nv12:
            guard let chroma = view.chromaPlane else { return SIMD3(Int32(row[x]), 128, 128) }
            let line = (chroma + (y >> 1) * view.bytesPerRow).assumingMemoryBound(to: UInt8.self) + 2 * (x >> 1)
            return SIMD3(Int32(row[x]), Int32(line[0]), Int32(line[1]))
        case .z16, .alpha8:
            return SIMD3(0, 0, 0)
        }
    }
}

/// A camera frame read as three channels a pixel, in the frame's own order (R G B, B G R or
/// Y Cb Cr; RimDecontamination.channels), the format's layout worked out once a frame: channel 0
/// of pixel (x, y) is `luma[y * stride + x * firstStep]`, channels 1 and 2 the byte at
/// `others + (y >> othersRowShift) * othersStride + (x >> othersShift) * othersStep` and the one
/// `secondOffset` after it. Reading a pixel through the format's switch, a SIMD3 and overflow
/// checks was most of a run's gathering.
private struct ColourFrame {
    let luma: UnsafePointer<UInt8>
    let stride, firstStep: Int
    let others: UnsafePointer<UInt8>
    let othersRowShift, othersStride, othersShift, othersStep, secondOffset: Int

    /// `view` (not .z16 or .alpha8); `neutral`, two bytes of 128, is the chroma of an NV12 view
    /// without its chroma plane.
    init(_ view: ImageView, neutral: UnsafePointer<UInt8>) {
        let base = UnsafePointer(view.base.assumingMemoryBound(to: UInt8.self))
        luma = base
        stride = view.bytesPerRow
        switch view.format {
        case .rgb24:
            (firstStep, others, othersRowShift, othersStride, othersShift, othersStep, secondOffset) = (3, base + 1, 0, stride, 0, 3, 1)
        case .xrgb8888, .argb8888:
            (firstStep, others, othersRowShift, othersStride, othersShift, othersStep, secondOffset) = (4, base + 1, 0, stride, 0, 4, 1)
        case .yuyv:
            (firstStep, others, othersRowShift, othersStride, othersShift, othersStep, secondOffset) = (2, base + 1, 0, stride, 1, 4, 2)
        case .nv12:
            if let chroma = view.chromaPlane {
                let plane = UnsafePointer(chroma.assumingMemoryBound(to: UInt8.self))
                (firstStep, others, othersRowShift, othersStride, othersShift, othersStep, secondOffset) = (1, plane, 1, stride, 1, 2, 1)
            } else {
                (firstStep, others, othersRowShift, othersStride, othersShift, othersStep, secondOffset) = (1, neutral, 0, 0, 0, 0, 1)
            }
        case .z16, .alpha8:
            preconditionFailure("rim decontamination: no colour in a depth or alpha frame")
        }
    }

    @inline(__always)
    func row(_ y: Int) -> ColourRow {
        ColourRow(first: luma + y &* stride, firstStep: firstStep, others: others + (y &>> othersRowShift) &* othersStride,
                  othersShift: othersShift, othersStep: othersStep, secondOffset: secondOffset)
    }
}

/// One row of a ColourFrame.
private struct ColourRow {
    let first: UnsafePointer<UInt8>
    let firstStep: Int
    let others: UnsafePointer<UInt8>
    let othersShift, othersStep, secondOffset: Int

    @inline(__always)
    func channels(_ x: Int) -> (Int32, Int32, Int32) {
        let pair = others + (x &>> othersShift) &* othersStep
        return (Int32(first[x &* firstStep]), Int32(pair[0]), Int32(pair[secondOffset]))
    }
}

/// The decontamination's per-pixel arithmetic for a whole run, four lanes at a time (NEON on the
/// board, SSE on the host): F, B and I (subject, background, own colour, frame channels) to the
/// corrected colour I + (1 - t)(F - B), t = (I - B).(F - B) / |F - B|^2 clamped to 0...1.
///
/// t is measured on the colours as shown (RGB, the compositor's own conversion for YCbCr frames):
/// a projection is not kept by the YCbCr-to-RGB map (it is not orthogonal), so measured in Y Cb Cr
/// a YUYV camera frame and the same frame as RGB (a recording, `backdrop render`) got different
/// shares and a different rim on screen. The swap itself is done in the frame's channels: it is
/// affine, so it commutes with the conversion. (1 - t) is 12-bit fixed point, the exact integer
/// quotient ((|F-B|^2 - along) << 12) / |F-B|^2, found as a float quotient put right by one step
/// either way: it was an integer division per pixel. Clamps are sign masks, not pointwiseMin/Max
/// (out-of-line calls in the optimised build). What depends on F and B alone (F - B shown and
/// raw, |F - B|^2, B.(F - B)) is worked out once when they are given, (I - B).(F - B) taken as
/// I.(F - B) - B.(F - B) (the same integers): converting F and B to RGB in every lane was half of
/// `solve` (SSE2 has no 32-bit lane multiply). RimLanesTests' reference correction is the
/// per-pixel formula this must equal for every input.
///
/// Works in memory it is lent (the rim patch's); allocates nothing. Not thread-safe.
final class RimLanes {
    static let width = 4
    typealias Lanes = SIMD4<Int32>

    let capacity: Int
    /// Inputs per solved pixel, from its subject F, background B and own colour I (frame
    /// channels: R G B, B G R or Y Cb Cr): F - B in the frame's channels (`raw`), F - B as shown
    /// (`shown`, RGB), |F - B|^2 as shown (`contrast`), B.(F - B) as shown (`groundDot`), and I.
    /// F and B are read once into these (`set`, `fill`), not once a lane: most of a row's lanes
    /// are the runs between a subject's and a background's pixel, one F and B for the whole run.
    let raw0, raw1, raw2, shown0, shown1, shown2, contrast, groundDot, own0, own1, own2: UnsafeMutablePointer<Int32>
    /// Output per solved pixel: channel 0 | 1 << 8 | 2 << 16, or -1 where F and B are too alike.
    let result: UnsafeMutablePointer<Int32>
    /// Per pixel of the row (by column), its index among the solved ones, or -1 when it had no
    /// references; read only at the row's partial pixels.
    let slot: UnsafeMutablePointer<Int32>

    /// Int32s of storage for `capacity` pixels.
    static func storageCount(capacity: Int) -> Int { 13 * (capacity + width) }

    /// Works in `storage` (`storageCount(capacity:)` Int32s), which must outlive it.
    init(storage: UnsafeMutablePointer<Int32>, capacity: Int) {
        self.capacity = capacity
        let stride = capacity + Self.width
        raw0 = storage
        raw1 = storage + stride
        raw2 = storage + 2 * stride
        shown0 = storage + 3 * stride
        shown1 = storage + 4 * stride
        shown2 = storage + 5 * stride
        contrast = storage + 6 * stride
        groundDot = storage + 7 * stride
        own0 = storage + 8 * stride
        own1 = storage + 9 * stride
        own2 = storage + 10 * stride
        result = storage + 11 * stride
        slot = storage + 12 * stride
    }

    /// Y Cb Cr to R G B as the compositor shows it (YCbCr.rgb), one pixel: `shown` lane for lane,
    /// in plain integers (SIMD3 arithmetic was lane multiplies SSE2 does not have).
    @inline(__always)
    private static func shownPixel(_ y: Int32, _ cb: Int32, _ cr: Int32) -> (Int32, Int32, Int32) {
        let luma = y &* 74 &+ ((y &* 66) &>> 7) &- 1160
        let u = cb &- 128
        let v = cr &- 128
        @inline(__always) func channel(_ fixed: Int32) -> Int32 {
            let value = fixed &>> 6
            return value < 0 ? 0 : (value > 255 ? 255 : value)
        }
        return (channel(luma &+ v &* 102), channel(luma &- u &* 25 &- v &* 52), channel(luma &+ u &* 129))
    }

    /// What solve reads of F and B: F - B raw, F - B shown, |F - B|^2 and B.(F - B) shown.
    private struct References {
        var raw0, raw1, raw2, shown0, shown1, shown2, contrast, groundDot: Int32

        @inline(__always)
        init(subject f: (Int32, Int32, Int32), ground b: (Int32, Int32, Int32), ycbcr: Bool) {
            let (f0, f1, f2) = f
            let (b0, b1, b2) = b
            var fm = (f0, f1, f2)
            var bm = (b0, b1, b2)
            if ycbcr {
                fm = RimLanes.shownPixel(f0, f1, f2)
                bm = RimLanes.shownPixel(b0, b1, b2)
            }
            raw0 = f0 &- b0
            raw1 = f1 &- b1
            raw2 = f2 &- b2
            shown0 = fm.0 &- bm.0
            shown1 = fm.1 &- bm.1
            shown2 = fm.2 &- bm.2
            contrast = shown0 &* shown0 &+ shown1 &* shown1 &+ shown2 &* shown2
            groundDot = bm.0 &* shown0 &+ bm.1 &* shown1 &+ bm.2 &* shown2
        }
    }

    /// Lane k's subject, background and own colour (frame channels; `ycbcr` when they are
    /// Y Cb Cr, as `solve` is then told).
    @inline(__always)
    func set(_ k: Int, subject: SIMD3<Int32>, ground: SIMD3<Int32>, own: SIMD3<Int32>, ycbcr: Bool) {
        set(k, subject: (subject.x, subject.y, subject.z), ground: (ground.x, ground.y, ground.z), own: (own.x, own.y, own.z),
            ycbcr: ycbcr)
    }

    /// `set` with each colour's channels as three integers.
    @inline(__always)
    func set(_ k: Int, subject: (Int32, Int32, Int32), ground: (Int32, Int32, Int32), own: (Int32, Int32, Int32), ycbcr: Bool) {
        let r = References(subject: subject, ground: ground, ycbcr: ycbcr)
        raw0[k] = r.raw0
        raw1[k] = r.raw1
        raw2[k] = r.raw2
        shown0[k] = r.shown0
        shown1[k] = r.shown1
        shown2[k] = r.shown2
        contrast[k] = r.contrast
        groundDot[k] = r.groundDot
        own0[k] = own.0
        own1[k] = own.1
        own2[k] = own.2
    }

    /// Lane k's subject, background and own colour (frame channels), the references left to
    /// `referFromColours`: the pixels that searched their columns each have their own, and
    /// working them out one lane at a time was a third of gathering them.
    @inline(__always)
    func setColours(_ k: Int, subject: (Int32, Int32, Int32), ground: (Int32, Int32, Int32), own: (Int32, Int32, Int32)) {
        // Parked where `referFromColours` writes the references: the subject in `raw`, the
        // background in `shown`.
        raw0[k] = subject.0
        raw1[k] = subject.1
        raw2[k] = subject.2
        shown0[k] = ground.0
        shown1[k] = ground.1
        shown2[k] = ground.2
        own0[k] = own.0
        own1[k] = own.1
        own2[k] = own.2
    }

    /// The references of lanes from..<to, given by `setColours`, four lanes at a time, as `set`
    /// works them out: the conversion to R G B in floats (exact, RimLanesTests), and the
    /// products, below 2^18 in size, exact in floats too. The last four lanes reach up to three
    /// past `to`: there is room, and what follows the lanes is written again or padded by `solve`.
    @inline(never)
    func referFromColours(from first: Int, to end: Int, ycbcr: Bool) {
        guard first < end else { return }
        // The lanes past the end must read initialised memory (their results are never read).
        @inline(__always) func pad(_ p: UnsafeMutablePointer<Int32>) {
            UnsafeMutableRawPointer(p + end).storeBytes(of: Lanes(), as: Lanes.self)
        }
        pad(raw0); pad(raw1); pad(raw2)
        pad(shown0); pad(shown1); pad(shown2)
        @inline(__always) func store(_ p: UnsafeMutablePointer<Int32>, _ k: Int, _ value: Lanes) {
            UnsafeMutableRawPointer(p + k).storeBytes(of: value, as: Lanes.self)
        }
        var i = first
        while i < end {
            let f0 = Self.load(raw0, i), f1 = Self.load(raw1, i), f2 = Self.load(raw2, i)
            let b0 = Self.load(shown0, i), b1 = Self.load(shown1, i), b2 = Self.load(shown2, i)
            let fm = ycbcr ? Self.shown(f0, f1, f2) : (Floats(f0), Floats(f1), Floats(f2))
            let bm = ycbcr ? Self.shown(b0, b1, b2) : (Floats(b0), Floats(b1), Floats(b2))
            let d0 = fm.0 - bm.0, d1 = fm.1 - bm.1, d2 = fm.2 - bm.2
            store(raw0, i, f0 &- b0)
            store(raw1, i, f1 &- b1)
            store(raw2, i, f2 &- b2)
            store(shown0, i, Self.integers(d0))
            store(shown1, i, Self.integers(d1))
            store(shown2, i, Self.integers(d2))
            store(contrast, i, Self.integers(d0 * d0 + d1 * d1 + d2 * d2))
            store(groundDot, i, Self.integers(bm.0 * d0 + bm.1 * d1 + bm.2 * d2))
            i &+= Self.width
        }
    }

    /// Lanes from..<from+count with the same subject and background (their own colours apart).
    /// Four lanes a store, the last store reaching up to three lanes past the run: there is room
    /// (`width` lanes past `capacity`), and the lanes after a run are written again by what
    /// follows it or padded by `solve`.
    @inline(__always)
    func fill(from first: Int, count: Int, subject: (Int32, Int32, Int32), ground: (Int32, Int32, Int32), ycbcr: Bool) {
        let r = References(subject: subject, ground: ground, ycbcr: ycbcr)
        @inline(__always) func store(_ p: UnsafeMutablePointer<Int32>, _ k: Int, _ value: Int32) {
            UnsafeMutableRawPointer(p + k).storeBytes(of: Lanes(repeating: value), as: Lanes.self)
        }
        var k = first
        while k < first &+ count {
            store(raw0, k, r.raw0)
            store(raw1, k, r.raw1)
            store(raw2, k, r.raw2)
            store(shown0, k, r.shown0)
            store(shown1, k, r.shown1)
            store(shown2, k, r.shown2)
            store(contrast, k, r.contrast)
            store(groundDot, k, r.groundDot)
            k &+= Self.width
        }
    }

    @inline(__always)
    private static func load(_ p: UnsafeMutablePointer<Int32>, _ i: Int) -> Lanes {
        UnsafeRawPointer(p + i).loadUnaligned(as: Lanes.self)
    }

    /// All ones where `value` < 0, else 0.
    @inline(__always)
    private static func negative(_ value: Lanes) -> Lanes { value &>> 31 }

    /// `value` clamped to 0...255.
    @inline(__always)
    private static func byte(_ value: Lanes) -> Lanes {
        let nonNegative = value & ~negative(value)
        return (nonNegative | negative(Lanes(repeating: 255) &- nonNegative)) & 0xFF
    }

    typealias Floats = SIMD4<Float>

    /// 1.5 x 2^23: a float below 2^22 in size plus this is rounded to an integer, which its bits
    /// less `roundedBits` are.
    private static let roundingBias: Float = 12_582_912
    private static let roundedBits: Int32 = 0x4B40_0000

    /// floor(value / 2^shift) for integer-valued lanes below 2^21 in size, as floats: the
    /// quotient less (2^shift - 1) / 2^(shift + 1) is never halfway between integers, so rounding
    /// it to nearest (the bias) floors it. Exact: every step is a float with room to spare.
    @inline(__always)
    private static func floor(_ value: Floats, shift: Int) -> Floats {
        let scale = Float(sign: .plus, exponent: -shift, significand: 1)
        let below = (Float(sign: .plus, exponent: shift, significand: 1) - 1) * scale * 0.5
        return (value * scale - below + roundingBias) - roundingBias
    }

    /// The integers of integer-valued float lanes below 2^22 in size.
    @inline(__always)
    private static func integers(_ value: Floats) -> Lanes {
        unsafeBitCast(value + roundingBias, to: Lanes.self) &- roundedBits
    }

    /// Integer-valued float lanes clamped to 0...255, by their bits' signs (float min and max
    /// were out-of-line calls, as the integer ones were).
    @inline(__always)
    private static func byte(_ value: Floats) -> Floats {
        let bits = unsafeBitCast(value, to: Lanes.self)
        let nonNegative = unsafeBitCast(bits & ~negative(bits), to: Floats.self)
        let over = unsafeBitCast(nonNegative - 255, to: Lanes.self)
        return unsafeBitCast(over & negative(over), to: Floats.self) + 255
    }

    /// Y Cb Cr to R G B as the compositor shows it (YCbCr.rgb, lane for lane), in integers. `solve`
    /// takes this form, not the float one (`shown`): with the dot and the shifted products in
    /// floats as well it ran fewer instructions (0.315M against 0.337M a frame) but took longer
    /// (the bench's decontamination 0.80 -> 0.83 ns a camera pixel, five alternating runs each).
    @inline(__always)
    private static func shownInIntegers(_ y: Lanes, _ cb: Lanes, _ cr: Lanes) -> (Lanes, Lanes, Lanes) {
        let luma = y &* 74 &+ ((y &* 66) &>> 7) &- 1160
        let u = cb &- 128
        let v = cr &- 128
        return (byte((luma &+ v &* 102) &>> 6), byte((luma &- u &* 25 &- v &* 52) &>> 6), byte((luma &+ u &* 129) &>> 6))
    }

    /// Y Cb Cr to R G B as the compositor shows it (YCbCr.rgb, lane for lane), in floats: the same
    /// integers (every product and sum is below 2^16 in size, so exact), where SSE2's 32-bit lane
    /// multiplies were two 64-bit ones and shuffles each. Internal for RimLanesTests, which
    /// compares it with the integer form for every Y Cb Cr.
    @inline(__always)
    static func shown(_ y: Lanes, _ cb: Lanes, _ cr: Lanes) -> (Floats, Floats, Floats) {
        let luminance = Floats(y)
        let luma = luminance * 74 + floor(luminance * 66, shift: 7) - 1160
        let u = Floats(cb) - 128
        let v = Floats(cr) - 128
        return (byte(floor(luma + v * 102, shift: 6)), byte(floor(luma - u * 25 - v * 52, shift: 6)),
                byte(floor(luma + u * 129, shift: 6)))
    }

    /// Corrects solved pixels 0..<count (at most `capacity`); `ycbcr` when the channels are
    /// Y Cb Cr (t then measured on their RGB), as `set` and `fill` were told.
    @inline(never)
    func solve(count: Int, ycbcr: Bool) {
        precondition(count <= capacity)
        // The lanes past the end must read initialised memory (their results are never read).
        @inline(__always) func pad(_ p: UnsafeMutablePointer<Int32>) {
            UnsafeMutableRawPointer(p + count).storeBytes(of: Lanes(), as: Lanes.self)
        }
        pad(raw0); pad(raw1); pad(raw2)
        pad(shown0); pad(shown1); pad(shown2)
        pad(contrast); pad(groundDot)
        pad(own0); pad(own1); pad(own2)
        let minimumContrast = Lanes(repeating: Int32(ColourEdges.minimumContrast))
        var i = 0
        while i < count {
            let i0 = Self.load(own0, i), i1 = Self.load(own1, i), i2 = Self.load(own2, i)
            let d0 = Self.load(shown0, i), d1 = Self.load(shown1, i), d2 = Self.load(shown2, i)
            let contrast = Self.load(self.contrast, i)
            var im = (i0, i1, i2)
            if ycbcr { im = Self.shownInIntegers(i0, i1, i2) }
            let contrasted = ~Self.negative(contrast &- minimumContrast)
            // (I - B).(F - B), as I.(F - B) - B.(F - B).
            let dot = im.0 &* d0 &+ im.1 &* d1 &+ im.2 &* d2 &- Self.load(groundDot, i)
            // along = clamp(dot, 0, contrast)
            let positive = dot & ~Self.negative(dot)
            let over = positive &- contrast
            let along = contrast &+ (over & Self.negative(over))
            // share = ((contrast - along) << 12) / contrast: numerator below 2^30, quotient 0...4096.
            let numerator = (contrast &- along) &<< 12
            let divisor = contrast | (Self.negative(contrast &- 1) & 1)
            // Float to integer by the 1.5 x 2^23 bias (round to nearest, within one of the floor).
            let biased = SIMD4<Float>(numerator) / SIMD4<Float>(divisor) + SIMD4<Float>(repeating: 12_582_912)
            var share = unsafeBitCast(biased, to: Lanes.self) &- 0x4B40_0000
            share &+= ~Self.negative(numerator &- (share &+ 1) &* divisor) & 1
            share &-= Self.negative(numerator &- share &* divisor) & 1
            let c0 = Self.byte(i0 &+ ((Self.load(raw0, i) &* share) &>> 12))
            let c1 = Self.byte(i1 &+ ((Self.load(raw1, i) &* share) &>> 12))
            let c2 = Self.byte(i2 &+ ((Self.load(raw2, i) &* share) &>> 12))
            let packed = c0 | (c1 &<< 8) | (c2 &<< 16)
            UnsafeMutableRawPointer(result + i).storeBytes(of: (packed & contrasted) | ~contrasted, as: Lanes.self)
            i += Self.width
        }
    }
}

/// Per column, what RimDecontamination's column searches know in this frame (rows only ever
/// rise), in ColumnSearch's marks (row << 1 | 1 opaque): up, the nearest confident pixel above
/// the column's last partial pixel (Int32.min / 2 none, out of every reach); down, `downFirst`,
/// the first confident pixel after the rows last searched, or -1 with `downUntil` the end of the
/// rows read (none of them confident).
private final class ColumnMemo {
    let up, downFirst, downUntil: UnsafeMutablePointer<Int32>
    let width: Int

    static func storageCount(width: Int) -> Int { 3 * width }

    /// Works in `storage` (`storageCount(width:)` Int32s), which must outlive it.
    init(storage: UnsafeMutablePointer<Int32>, width: Int) {
        self.width = width
        up = storage
        downFirst = storage + width
        downUntil = storage + 2 * width
    }

    /// Nothing read yet (a new frame).
    func reset() {
        up.update(repeating: Int32.min / 2, count: width)
        downFirst.update(repeating: -1, count: width)
        downUntil.update(repeating: 0, count: width)
    }
}
