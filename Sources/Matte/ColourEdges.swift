import Frames
import KernelIO

/// Colour-guided edges: the depth matte, brought up to colour resolution, is re-decided by the
/// colour image where depth is least sure, so the edge follows clothes, hands and hair rather than
/// the coarser, noisier depth grid, and the strip beside a depth edge that the sensor cannot see
/// (the emitter's or the other camera's occlusion shadow: no reading) goes with whichever side it
/// looks like.
///
/// Uncertain: colour pixels within `reach` of a change of the upscaled matte, and the whole of a
/// short hole run (at most `stripLength` work pixels along the row: a shadow is a horizontal
/// strip, the baseline being horizontal) that borders the subject. Each uncertain pixel looks
/// along its row and column for the nearest sure pixels, up to `lookout` away; their colours give
/// a subject colour F and a background colour B, and the pixel's colour I is placed on the line
/// between them: alpha = (I - B).(F - B) / |F - B|^2. Where F and B are alike (a shirt before a
/// poster of its colour) or I lies far off their line (a third colour), colour says nothing and
/// the depth matte stays. The sure pixels are never changed, so holes inside a person that the
/// labeller filled stay filled and those reaching the background stay out.
///
/// A closed-form or guided-filter matte would be smoother; this local two-colour model is the
/// part of them that fits the frame budget (only edge pixels are visited, each reading a few
/// dozen neighbours). Planes are allocated in init; `run` allocates nothing. Not thread-safe.
final class ColourEdges {
    let workSize: FrameSize
    let alphaSize: FrameSize
    /// Colour pixels either side of a matte change that colour decides.
    let reach: Int
    /// Longest hole run, in work pixels, taken as a shadow strip.
    let stripLength: Int
    /// How far an uncertain pixel looks for sure ones, colour pixels.
    let lookout: Int
    /// The matte at colour resolution, refined; what the feather reads.
    let plane: UnsafeMutablePointer<UInt8>
    private let uncertain: UnsafeMutablePointer<UInt8>
    /// Per row, one bit per 16 marks (from the row's start) that may hold a nonzero one: a bit
    /// clear means those 16 marks are 0. The next frame clears only these groups, and `decide`
    /// looks for uncertain pixels only in them: most of a frame is far from any edge, and the
    /// whole-plane clear and scan were most of what the marks cost.
    private let markedGroups: UnsafeMutablePointer<UInt64>
    private let groupWords: Int
    /// markChanges' row state, a bit per group (groupWords words each): the 16-column groups of
    /// the row that differ from the row above, and the groups along the row (markChangesAlong's)
    /// that had a change in the last row marked, then a word of the same for the row's ends.
    private let changedGroups: UnsafeMutablePointer<UInt64>
    private let changesAlong: UnsafeMutablePointer<UInt64>
    /// The marks along the row markChangesAlong last worked out for each group with a change
    /// (at the group's columns; a group whose window is as it was in the row above has them again).
    private let marksAlong: UnsafeMutablePointer<UInt8>
    /// markStrips' row of holes as bits, a bit a work pixel, with a zero word past the row's end.
    private let holeBits: UnsafeMutablePointer<UInt64>
    /// Where colour decided this frame, for `restoreDecided`: stretches of decided pixels along a
    /// row, each two entries (the first pixel's index and the length), rising; past its capacity
    /// the whole plane is scanned instead.
    private let decidedList: UnsafeMutablePointer<Int32>
    private let decidedCapacity: Int
    private var decidedCount = 0
    private let grid: NearestGrid
    private let columnMap: UnsafeMutablePointer<Int32>
    private let rowMap: UnsafeMutablePointer<Int32>
    /// Per work column (and one past the last), the first colour column mapped to it or beyond.
    private let firstColumn: UnsafeMutablePointer<Int32>
    private let lanes: EdgeLanes
    /// Colour columns show work column x (equal widths) or x / 2 (twice as wide): upscale then
    /// copies, or doubles 16 bytes at a time, instead of filling by runs.
    private let columnFactor: Int
    /// Per column, what `sureAbove` and `sureBelow` have read this frame (ColumnReads).
    private let upThrough, upLast, downFirst, downUntil: UnsafeMutablePointer<Int32>
    private let memory: AlignedBuffer
    /// Decide in lanes (EdgeLanes), with the remembered column searches, the word-wise scan and
    /// the vector marking, rather than pixel by pixel with plain walks, scan and marking (the form
    /// before them); the same bytes either way. False only in tests, which compare the two.
    var vectorised = true
    /// Mark of an uncertain pixel colour has decided: the feather leaves it as colour said, since
    /// blurring it again would spread the subject's alpha over background colour (the rim).
    static let decided: UInt8 = 2
    /// |F - B|^2 below this (in 8-bit colour units squared) leaves the depth matte.
    static let minimumContrast: Int = 24 * 24

    init(workSize: FrameSize, alphaSize: FrameSize) throws(SystemError) {
        self.workSize = workSize
        self.alphaSize = alphaSize
        let scale = max(1, (alphaSize.width + workSize.width - 1) / workSize.width)
        // Two colour pixels and one whole work pixel: the depth edge is good to about a work
        // pixel. Wider is worse, not safer: the farther from the edge, the likelier a reference
        // colour belongs to another part (the unregistered group scene: IoU 0.960 at 3, 0.937 at
        // 4, 0.904 at 5).
        reach = 2 + max(1, alphaSize.width / workSize.width)
        stripLength = max(4, workSize.width / 26)
        lookout = reach + stripLength * scale + 2
        let pixels = alphaSize.pixelCount + 16
        decidedCapacity = max(1024, alphaSize.pixelCount / 8)
        var layout = BufferLayout()
        let planeSlot = layout.reserve(UInt8.self, count: pixels)
        let uncertainSlot = layout.reserve(UInt8.self, count: pixels)
        groupWords = (alphaSize.width + 16 * 64 - 1) / (16 * 64)
        let markedGroupsSlot = layout.reserve(UInt64.self, count: groupWords * alphaSize.height)
        let rowGroupsSlot = layout.reserve(UInt64.self, count: 2 * groupWords + 1)
        let marksAlongSlot = layout.reserve(UInt8.self, count: alphaSize.width + 16)
        let holeBitsSlot = layout.reserve(UInt64.self, count: workSize.width / 64 + 2)
        let decidedSlot = layout.reserve(Int32.self, count: decidedCapacity)
        let firstColumnSlot = layout.reserve(Int32.self, count: workSize.width + 1)
        let columnReadsSlot = layout.reserve(Int32.self, count: 4 * alphaSize.width)
        memory = try AlignedBuffer(layout: layout)
        plane = memory.pointer(planeSlot)
        uncertain = memory.pointer(uncertainSlot)
        markedGroups = memory.pointer(markedGroupsSlot)
        changedGroups = memory.pointer(rowGroupsSlot)
        changesAlong = changedGroups + groupWords
        marksAlong = memory.pointer(marksAlongSlot)
        holeBits = memory.pointer(holeBitsSlot)
        decidedList = memory.pointer(decidedSlot)
        firstColumn = memory.pointer(firstColumnSlot)
        let columnReads = memory.pointer(columnReadsSlot)
        upThrough = columnReads
        upLast = columnReads + alphaSize.width
        downFirst = columnReads + 2 * alphaSize.width
        downUntil = columnReads + 3 * alphaSize.width
        grid = try NearestGrid(from: workSize, to: alphaSize)
        columnMap = grid.columns
        rowMap = grid.rows
        lanes = try EdgeLanes(capacity: alphaSize.width)
        var identity = alphaSize.width == workSize.width
        var doubled = alphaSize.width == 2 * workSize.width
        for x in 0..<alphaSize.width {
            if Int(grid.columns[x]) != x { identity = false }
            if Int(grid.columns[x]) != x >> 1 { doubled = false }
        }
        columnFactor = identity ? 1 : doubled ? 2 : 0
        var x = 0
        for w in 0...workSize.width {
            while x < alphaSize.width && Int(columnMap[x]) < w { x += 1 }
            firstColumn[w] = Int32(x)
        }
    }

    /// After the feather: puts back the alpha colour decided (see `decided`).
    @inline(never)
    func restoreDecided(into alpha: ImageView) {
        let width = alphaSize.width
        if decidedCount <= decidedCapacity {
            // The list rises (decided row by row, left to right): the row is divided out only
            // when it changes, not at every stretch.
            var rowStart = 0
            var out = alpha.row(0).assumingMemoryBound(to: UInt8.self)
            var i = 0
            while i < decidedCount {
                let index = Int(decidedList[i])
                let count = Int(decidedList[i &+ 1])
                if index < rowStart || index >= rowStart &+ width {
                    let y = index / width
                    rowStart = y &* width
                    out = alpha.row(y).assumingMemoryBound(to: UInt8.self)
                }
                let x = index &- rowStart
                let to = out + x
                let from = plane + index
                if count <= 8 && x &+ 8 <= width {
                    // A stretch of at most 8 (most are) as one word: the plane's bytes in its
                    // lanes, the alpha's own after it (the plane has room past its end).
                    let lanes: UInt64 = count == 8 ? ~0 : (1 &<< UInt64(8 &* count)) &- 1
                    let kept = UnsafeRawPointer(to).loadUnaligned(as: UInt64.self) & ~UInt64(littleEndian: lanes)
                    let put = UnsafeRawPointer(from).loadUnaligned(as: UInt64.self) & UInt64(littleEndian: lanes)
                    UnsafeMutableRawPointer(to).storeBytes(of: kept | put, as: UInt64.self)
                } else {
                    var k = 0
                    while k < count {
                        to[k] = from[k]
                        k &+= 1
                    }
                }
                i &+= 2
            }
            return
        }
        let marks = UnsafeRawPointer(uncertain)
        for y in 0..<alphaSize.height {
            let out = alpha.row(y).assumingMemoryBound(to: UInt8.self)
            var x = 0
            while x < width {
                if x + 8 <= width && marks.loadUnaligned(fromByteOffset: y * width + x, as: UInt64.self) == 0 {
                    x += 8
                    continue
                }
                if uncertain[y * width + x] == Self.decided { out[x] = plane[y * width + x] }
                x += 1
            }
        }
    }

    /// `soft` is the work-size matte (0...255), `classes` the work-size class map (holes marked
    /// RunLabeller.hole), `colour` the colour frame of alphaSize. Leaves the result in `plane`.
    func run(soft: UnsafePointer<UInt8>, classes: UnsafePointer<UInt8>, colour: ImageView) {
        upscale(soft)
        if vectorised { markChanges() } else { markChangesPlainly() }
        markStrips(soft: soft, classes: classes)
        decide(ColourProbe(colour))
    }

    /// Nearest-neighbour upscale: a copy or each byte doubled where the columns map one or two to
    /// one (`columnFactor`), else by runs (a work row is mostly long stretches of one value, each
    /// filled into its colour columns at once); colour rows that show the same work row are copies.
    /// Copies go through copyElements, one memmove: the standard library's update(from:count:) is a
    /// call per byte in the board's Embedded build (2.2 M of the matte's 23 M instructions per
    /// 640x480 frame in upscale alone, make bench-arm64-count).
    @inline(never)
    private func upscale(_ soft: UnsafePointer<UInt8>) {
        let width = alphaSize.width
        let workWidth = workSize.width
        var lastRow = -1
        for y in 0..<alphaSize.height {
            let wy = Int(rowMap[y])
            let to = plane + y * width
            if wy == lastRow {
                to.copyElements(from: to - width, count: width)
                continue
            }
            lastRow = wy
            let from = soft + wy * workWidth
            // The runs are the reference form (`vectorised` false).
            let factor = vectorised ? columnFactor : 0
            if factor == 1 {
                to.copyElements(from: from, count: width)
                continue
            }
            var x = 0
            if factor == 2 {
                // Each byte twice: widened to 16 bits and multiplied by 0x0101.
                while x + 16 <= workWidth {
                    let bytes = UnsafeRawPointer(from + x).loadUnaligned(as: SIMD16<UInt8>.self)
                    UnsafeMutableRawPointer(to + 2 * x).storeBytes(of: SIMD16<UInt16>(truncatingIfNeeded: bytes) &* 0x0101,
                                                                   as: SIMD16<UInt16>.self)
                    x += 16
                }
                while x < workWidth {
                    to[2 * x] = from[x]
                    to[2 * x + 1] = from[x]
                    x += 1
                }
                continue
            }
            while x < workWidth {
                let end = RunLabeller.runEnd(row: from, from: x, width: workWidth, value: from[x])
                let first = Int(firstColumn[x])
                let last = Int(firstColumn[end])
                if first < last { (to + first).update(repeating: from[x], count: last - first) }
                x = end
            }
        }
        clearMarks()
        decidedCount = 0
    }

    /// Zeroes the marks of every group last frame marked (the plane has 16 bytes of room past its
    /// end, and a group running into the next row clears marks that are being cleared or are 0).
    @inline(never)
    private func clearMarks() {
        let width = alphaSize.width
        for y in 0..<alphaSize.height {
            let words = markedGroups + y * groupWords
            let marks = UnsafeMutableRawPointer(uncertain + y * width)
            for w in 0..<groupWords {
                var bits = words[w]
                while bits != 0 {
                    let g = (w &<< 6) &+ bits.trailingZeroBitCount
                    marks.storeBytes(of: SIMD16<UInt8>(), toByteOffset: g &<< 4, as: SIMD16<UInt8>.self)
                    bits &= bits &- 1
                }
                words[w] = 0
            }
        }
    }

    /// Notes that marks x..<end of row y may be nonzero (x < end).
    @inline(__always)
    private func noteMarks(y: Int, from x: Int, to end: Int) {
        let words = markedGroups + y &* groupWords
        var g = x &>> 4
        let last = (end &- 1) &>> 4
        while g <= last {
            words[g &>> 6] |= 1 &<< UInt64(g & 63)
            g &+= 1
        }
    }

    /// Notes that group g (marks 16 g ..< 16 g + 16) of row y may hold nonzero marks.
    @inline(__always)
    private func noteGroup(y: Int, _ g: Int) {
        markedGroups[y &* groupWords &+ g &>> 6] |= 1 &<< UInt64(g & 63)
    }

    /// The first nonzero mark of row y at or after x, or the width: only noted groups are read.
    @inline(__always)
    private func firstMark(y: Int, from x: Int) -> Int {
        let width = alphaSize.width
        let words = markedGroups + y &* groupWords
        let rowMarks = UnsafeRawPointer(uncertain + y &* width)
        let groups = (width &+ 15) &>> 4
        var g = x &>> 4
        while g < groups {
            let bits = words[g &>> 6] &>> UInt64(g & 63)
            if bits == 0 {
                g = (g | 63) &+ 1
                continue
            }
            g &+= bits.trailingZeroBitCount
            if g >= groups { break }
            let base = g &<< 4
            if base &+ 16 <= width {
                // Both words of the group at once, the bytes before x masked off.
                @inline(__always) func nonzero(_ at: Int) -> UInt64 {
                    // Bit 7 of each nonzero byte (no carry leaves a byte: (m & 0x7F) + 0x7F <= 0xFE).
                    let word = UInt64(littleEndian: rowMarks.loadUnaligned(fromByteOffset: at, as: UInt64.self))
                    return (((word & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F) | word) & 0x8080_8080_8080_8080
                }
                var low = nonzero(base)
                var high = nonzero(base &+ 8)
                let skip = x &- base
                if skip > 0 {
                    if skip >= 8 {
                        low = 0
                        high &= ~0 &<< UInt64(8 &* (skip &- 8))
                    } else {
                        low &= ~0 &<< UInt64(8 &* skip)
                    }
                }
                if low != 0 { return base &+ low.trailingZeroBitCount &>> 3 }
                if high != 0 { return base &+ 8 &+ high.trailingZeroBitCount &>> 3 }
            } else {
                var p = max(x, base)
                while p < width {
                    if rowMarks.load(fromByteOffset: p, as: UInt8.self) != 0 { return p }
                    p &+= 1
                }
            }
            g &+= 1
        }
        return width
    }

    /// Marks `reach` pixels either side of every change along rows and along columns.
    /// A colour row that shows the same work row as the one above it is skipped: its changes
    /// along the row are the row above's and it has none to it, and markStrips overwrites its marks
    /// with the row above's anyway (shared work rows share their marks). Along columns, 16 columns
    /// are compared at once and a changed group marks its rows as one vector; which groups
    /// changed is kept (`changedGroups`) for the marking along the row.
    @inline(never)
    private func markChanges() {
        let width = alphaSize.width
        let height = alphaSize.height
        let groups = width / 16
        let reach = self.reach
        let changed = changedGroups
        for y in 0..<height {
            if y > 0 && rowMap[y] == rowMap[y &- 1] { continue }
            let row = UnsafePointer(plane + y &* width)
            let marks = uncertain + y &* width
            // Every group counts as changed in the first row: there is no row above to follow.
            for w in 0..<groupWords { changed[w] = y == 0 ? ~0 : 0 }
            if y > 0 {
                let above = UnsafeRawPointer(plane + (y &- 1) &* width)
                let here = UnsafeRawPointer(row)
                let top = max(0, y &- reach)
                let bottom = min(height, y &+ reach)
                var g = 0
                while g < groups {
                    let c = g &<< 4
                    @inline(__always) func differ(_ at: Int) -> SIMD16<UInt8> {
                        above.loadUnaligned(fromByteOffset: at, as: SIMD16<UInt8>.self)
                            ^ here.loadUnaligned(fromByteOffset: at, as: SIMD16<UInt8>.self)
                    }
                    // Four groups alike at once, then one.
                    if g &+ 4 <= groups && (differ(c) | differ(c &+ 16) | differ(c &+ 32) | differ(c &+ 48)).isAllZero {
                        g &+= 4
                        continue
                    }
                    let differ = differ(c)
                    if !differ.isAllZero {
                        changed[g &>> 6] |= 1 &<< UInt64(g & 63)
                        // 1 where the byte differs: the top bit of d | -d.
                        let changedBytes = (differ | (0 &- differ)) &>> 7
                        var yy = top
                        while yy < bottom {
                            let at = UnsafeMutableRawPointer(uncertain + (yy &* width &+ c))
                            at.storeBytes(of: at.loadUnaligned(as: SIMD16<UInt8>.self) | changedBytes, as: SIMD16<UInt8>.self)
                            noteGroup(y: yy, g)
                            yy &+= 1
                        }
                    }
                    g &+= 1
                }
                var c = groups &<< 4
                while c < width {
                    if row[c] != row[c &- width] {
                        changed[groups &>> 6] |= 1 &<< UInt64(groups & 63)
                        var yy = top
                        while yy < bottom {
                            uncertain[yy &* width &+ c] = 1
                            noteGroup(y: yy, groups)
                            yy &+= 1
                        }
                    }
                    c &+= 1
                }

            }
            if reach <= 8 && width >= 16 + 2 * reach {
                markChangesAlong(row, marks, markedGroups + y &* groupWords)
            } else {
                var x = 0
                while true {
                    let change = RunLabeller.runEnd(row: row, from: x, width: width, value: row[x])
                    if change >= width { break }
                    let first = max(0, change - reach)
                    let last = min(width, change + reach)
                    (marks + first).update(repeating: 1, count: last - first)
                    noteMarks(y: y, from: first, to: last)
                    x = change
                }
            }
        }
    }

    /// One row's marks along it, 16 pixels at a time: a change at c (row[c] != row[c - 1]) marks
    /// c - reach ..< c + reach, so pixel x is marked when a change lies in x - reach + 1 ... x + reach,
    /// which for 16 pixels is the OR of 2 reach shifted differences. The groups start at
    /// reach + 16 i; group i's window (reach either side) lies in the 16-column groups i and
    /// i + 1, so where neither changed from the row above (`changedGroups`) group i has the marks
    /// it had in the row above: none, and it is not read, if it had no change there
    /// (`changesAlong`), else those kept in `marksAlong`. Most of a frame, and much of an outline
    /// that runs down the rows, is like the row above. Runs in the
    /// soft edge are a pixel or two long, and finding them one by one was a mispredicted branch
    /// each. The first and last `reach` pixels, whose window leaves the row, are marked from the
    /// changes near them, and the last group, which overlaps the one before it, is always read.
    /// Needs reach <= 8 (one load each side covers the window) and width >= 16 + 2 reach.
    @inline(__always)
    private func markChangesAlong(_ row: UnsafePointer<UInt8>, _ marks: UnsafeMutablePointer<UInt8>,
                                  _ words: UnsafeMutablePointer<UInt64>) {
        let width = alphaSize.width
        let reach = self.reach
        let raw = UnsafeRawPointer(row)
        @inline(__always) func load(_ at: Int) -> SIMD16<UInt8> { raw.loadUnaligned(fromByteOffset: at, as: SIMD16<UInt8>.self) }
        // 16 pixels from x marked where a change lies in their window; false when none does.
        // The groups of marks it wrote are noted by the caller.
        @inline(__always) func markGroup(_ x: Int) -> Bool {
            let same = SIMD16<UInt8>(repeating: row[x &- reach])
            if ((load(x &- reach) ^ same) | (load(x &+ reach) ^ same)).isAllZero { return false }
            var previous = load(x &- reach)
            var changes = SIMD16<UInt8>()
            var k = 1 &- reach
            while k <= reach {
                let next = load(x &+ k)
                changes |= next ^ previous
                previous = next
                k &+= 1
            }
            let marked = (changes | (0 &- changes)) &>> 7
            let at = UnsafeMutableRawPointer(marks + x)
            at.storeBytes(of: at.loadUnaligned(as: SIMD16<UInt8>.self) | marked, as: SIMD16<UInt8>.self)
            UnsafeMutableRawPointer(marksAlong).storeBytes(of: marked, toByteOffset: x, as: SIMD16<UInt8>.self)
            return true
        }
        // Groups reach + 16 i for i below `regular` cover reach ..< width - reach but for the
        // last one's overlap (marking twice is marking once).
        let lastGroup = width &- 16 &- reach
        let regular = (lastGroup &- reach) / 16 &+ 1
        let changed = changedGroups
        let along = changesAlong
        for w in 0..<groupWords {
            let first = w &<< 6
            guard first < regular else { break }
            let next = w &+ 1 < groupWords ? changed[w &+ 1] : 0
            let windowChanged = changed[w] | (changed[w] &>> 1) | (next &<< 63)
            var bits = along[w] | windowChanged
            if regular &- first < 64 { bits &= (1 &<< UInt64(regular &- first)) &- 1 }
            var now: UInt64 = 0
            while bits != 0 {
                let bit = bits.trailingZeroBitCount
                let x = reach &+ ((first &+ bit) &<< 4)
                if windowChanged & (1 &<< UInt64(bit)) == 0 {
                    // A change in the row above and the same window now: the same marks.
                    let at = UnsafeMutableRawPointer(marks + x)
                    at.storeBytes(of: at.loadUnaligned(as: SIMD16<UInt8>.self)
                                      | UnsafeRawPointer(marksAlong).loadUnaligned(fromByteOffset: x, as: SIMD16<UInt8>.self),
                                  as: SIMD16<UInt8>.self)
                    now |= 1 &<< UInt64(bit)
                } else if markGroup(x) {
                    now |= 1 &<< UInt64(bit)
                }
                bits &= bits &- 1
            }
            along[w] = now
            // Group i (from reach + 16 i, 0 < reach < 16) wrote marks in groups i and i + 1.
            words[w] |= now | (now &<< 1)
            if now &>> 63 != 0 { words[w &+ 1] |= 1 }
        }
        // The row's ends, the same way: the head's window (its first 2 reach pixels) lies in
        // group 0, the last group's and the tail's in the groups from lastGroup - reach. Bits of
        // `ends`: 1 the head had a change, 2 the tail, 4 the last group.
        let previousEnds = along[groupWords]
        var ends: UInt64 = 0
        var tailChanged = false
        var g = (lastGroup &- reach) &>> 4
        while g <= (width &- 1) &>> 4 {
            if (changed[g &>> 6] &>> UInt64(g & 63)) & 1 != 0 { tailChanged = true }
            g &+= 1
        }
        let headChanged = changed[0] & 1 != 0 || previousEnds & 1 != 0
        if reach &+ (regular &<< 4) < lastGroup &+ 16 && (tailChanged || previousEnds & 4 != 0) && markGroup(lastGroup) {
            let g = lastGroup &>> 4, h = (lastGroup &+ 15) &>> 4
            words[g &>> 6] |= 1 &<< UInt64(g & 63)
            words[h &>> 6] |= 1 &<< UInt64(h & 63)
            ends |= 4
        }
        let tailToRead = tailChanged || previousEnds & 2 != 0
        // The first and last `reach` pixels, from the few changes that reach them; most rows have
        // none there (their first and last 2 reach pixels one value each: one compare apiece).
        let lane = SIMD16<UInt8>(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
        let span = UInt8(truncatingIfNeeded: 2 &* reach)
        // All ones in lanes below 2 reach (the head's), and in lanes from 16 - 2 reach (the tail's).
        let headLanes = 0 &- ((lane &- span) &>> 7)
        let tailLanes = ~(0 &- ((lane &- (16 &- span)) &>> 7))
        let headFlat = !headChanged || ((load(0) ^ SIMD16<UInt8>(repeating: row[0])) & headLanes).isAllZero
        let tailFlat = !tailToRead
            || ((load(width &- 16) ^ SIMD16<UInt8>(repeating: row[width &- 1])) & tailLanes).isAllZero
        if !headFlat { ends |= 1 }
        if !tailFlat { ends |= 2 }
        along[groupWords] = ends
        if !headFlat {
            for c in 1..<(2 * reach) where row[c] != row[c - 1] {
                for m in max(0, c - reach)..<min(reach, c + reach) { marks[m] = 1 }
                words[0] |= 1
            }
        }
        if !tailFlat {
            for c in (width - 2 * reach + 1)..<width where row[c] != row[c - 1] {
                for m in max(width - reach, c - reach)..<min(width, c + reach) {
                    marks[m] = 1
                    words[(m &>> 4) &>> 6] |= 1 &<< UInt64((m &>> 4) & 63)
                }
            }
        }
    }

    /// `markChanges` as it was before the skipped rows and vector columns: every row, every
    /// column (the reference form, `vectorised` false).
    private func markChangesPlainly() {
        let width = alphaSize.width
        let height = alphaSize.height
        for y in 0..<height {
            let row = UnsafePointer(plane + y * width)
            var x = 0
            while true {
                let change = RunLabeller.runEnd(row: row, from: x, width: width, value: row[x])
                if change >= width { break }
                for m in max(0, change - reach)..<min(width, change + reach) { uncertain[y * width + m] = 1 }
                x = change
            }
            guard y > 0 else { continue }
            for c in 0..<width where row[c] != plane[(y - 1) * width + c] {
                for yy in max(0, y - reach)..<min(height, y + reach) { uncertain[yy * width + c] = 1 }
            }
        }
        for y in 0..<height { noteMarks(y: y, from: 0, to: width) }
    }

    /// Hole runs of at most `stripLength` work pixels with the subject at one end. The holes are
    /// found from the row's bits (`rowBits`, 64 classes without a hole skipped at once): walking
    /// every run of the class row (`vectorised` false, the reference form) cost a run end search
    /// per run, and outside the subject's shadows the runs are the depth noise's, short and many.
    @inline(never)
    private func markStrips(soft: UnsafePointer<UInt8>, classes: UnsafePointer<UInt8>) {
        let workWidth = workSize.width
        let vectorised = self.vectorised
        var lastRow = -1
        for y in 0..<alphaSize.height {
            let wy = Int(rowMap[y])
            let marks = uncertain + y &* alphaSize.width
            if wy == lastRow {
                copyMarks(intoRow: y)
                continue
            }
            lastRow = wy
            let row = classes + wy &* workWidth
            let matte = soft + wy &* workWidth
            @inline(__always) func strip(from x: Int, to end: Int) {
                // The test as one branch, its parts without (each was a mispredicted branch at
                // noise runs): the neighbours' reads clamped into the row, and discarded there.
                @inline(__always) func one(_ b: Bool) -> Int { b ? 1 : 0 }
                let short = one(end &- x <= stripLength)
                let left = one(x > 0) & one(matte[max(x &- 1, 0)] >= 128)
                let right = one(end < workWidth) & one(matte[min(end, workWidth &- 1)] >= 128)
                if short & (left | right) != 0 {
                    let first = Int(firstColumn[x]), last = Int(firstColumn[end])
                    if first < last {
                        if last &- first <= 16 {
                            // Ones in the strip's lanes, ORed in (the marks have room past their end).
                            let lane = SIMD16<UInt8>(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
                            let ones = (lane &- SIMD16(repeating: UInt8(truncatingIfNeeded: last &- first))) &>> 7
                            let at = UnsafeMutableRawPointer(marks + first)
                            at.storeBytes(of: at.loadUnaligned(as: SIMD16<UInt8>.self) | ones, as: SIMD16<UInt8>.self)
                        } else {
                            for m in first..<last { marks[m] = 1 }
                        }
                        noteMarks(y: y, from: first, to: last)
                    }
                }
            }
            var x = 0
            if vectorised {
                // The row as bits first, then each hole run from its start's bit: searching the
                // bytes for each run's start and end was a few mispredicted branches a run, and
                // the depth noise's runs are many.
                rowBits(classes: row)
                let holes = holeBits
                var carry: UInt64 = 0
                var w = 0
                while w &* 64 < workWidth {
                    let h = holes[w]
                    var starts = h & ~((h &<< 1) | carry)
                    carry = h &>> 63
                    while starts != 0 {
                        let start = (w &<< 6) &+ starts.trailingZeroBitCount
                        // The first pixel from start that is not a hole (the zero word past the end stops it).
                        var v = w
                        var rest = ~h & (~0 &<< UInt64(start & 63))
                        while rest == 0 {
                            v &+= 1
                            rest = ~holes[v]
                        }
                        let end = (v &<< 6) &+ rest.trailingZeroBitCount
                        strip(from: start, to: end)
                        starts &= starts &- 1
                    }
                    w &+= 1
                }
                continue
            }
            while x < workWidth {
                let value = row[x]
                let end = RunLabeller.runEnd(row: row, from: x, width: workWidth, value: value)
                if value == RunLabeller.hole { strip(from: x, to: end) }
                x = end
            }
        }
    }

    /// One work row's holes into `holeBits`, a bit each; bits past the row's end 0.
    @inline(__always)
    private func rowBits(classes: UnsafePointer<UInt8>) {
        let workWidth = workSize.width
        let holes = holeBits
        let classBytes = UnsafeRawPointer(classes)
        let holeBytes = SIMD16<UInt8>(repeating: RunLabeller.hole)
        // The top bits of 8 bytes, gathered into the low byte by one multiply.
        @inline(__always) func topBits(_ word: UInt64) -> UInt64 {
            ((UInt64(littleEndian: word) & 0x8080_8080_8080_8080) &* 0x0002_0408_1020_4081) &>> 56
        }
        @inline(__always) func holesAt(_ at: Int) -> SIMD16<UInt8> {
            unsafeBitCast(classBytes.loadUnaligned(fromByteOffset: at, as: SIMD16<UInt8>.self) .== holeBytes,
                          to: SIMD16<UInt8>.self)
        }
        // 8 classes' holes as 8 bits, from the word itself (from the compare's lanes the
        // multiplies were vectorised, and SSE has no 64-bit multiply).
        @inline(__always) func bits(_ at: Int) -> UInt64 {
            let word = classBytes.loadUnaligned(fromByteOffset: at, as: UInt64.self) ^ (0x0101_0101_0101_0101 &* UInt64(RunLabeller.hole))
            // The top bit of each byte set where the byte is nonzero (no carry leaves a byte).
            let nonzero = ((word & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F) | word
            return topBits(~nonzero)
        }
        var w = 0
        while (w &+ 1) &* 64 <= workWidth {
            let at = w &<< 6
            let h0 = holesAt(at), h1 = holesAt(at &+ 16), h2 = holesAt(at &+ 32), h3 = holesAt(at &+ 48)
            // Most blocks of 64 have no hole.
            holes[w] = (h0 | h1 | h2 | h3).isAllZero
                ? 0 : bits(at) | (bits(at &+ 8) &<< 8) | (bits(at &+ 16) &<< 16) | (bits(at &+ 24) &<< 24)
                    | (bits(at &+ 32) &<< 32) | (bits(at &+ 40) &<< 40) | (bits(at &+ 48) &<< 48) | (bits(at &+ 56) &<< 56)
            w &+= 1
        }
        // The rest pixel by pixel, then the zero word.
        var h: UInt64 = 0
        var p = w &<< 6
        while p < workWidth {
            h |= (classes[p] == RunLabeller.hole ? 1 : 0) &<< UInt64(p & 63)
            p &+= 1
        }
        holes[w] = h
        holes[w &+ 1] = 0
    }

    /// Row y's marks made those of row y - 1: only the groups either has noted are copied (a
    /// group neither noted is 0 in both), and y takes y - 1's notes.
    @inline(__always)
    private func copyMarks(intoRow y: Int) {
        let width = alphaSize.width
        let to = uncertain + y * width
        let from = to - width
        let words = markedGroups + y * groupWords
        let above = words - groupWords
        for w in 0..<groupWords {
            var bits = words[w] | above[w]
            while bits != 0 {
                let start = ((w &<< 6) &+ bits.trailingZeroBitCount) &<< 4
                if start &+ 16 <= width {
                    UnsafeMutableRawPointer(to + start).storeBytes(of: UnsafeRawPointer(from + start).loadUnaligned(as: SIMD16<UInt8>.self),
                                                                   as: SIMD16<UInt8>.self)
                } else {
                    (to + start).copyElements(from: from + start, count: width &- start)
                }
                bits &= bits &- 1
            }
            words[w] = above[w]
        }
    }

    /// Row by row, run by run of uncertain pixels: the sure pixels just left and right of a run
    /// serve every pixel of it (read once); a pixel looks up and down only when those two do
    /// not already give one subject and one background colour. Each run's references and
    /// colours are gathered first, then decided together in lanes (EdgeLanes); `vectorised`
    /// false decides pixel by pixel with the scalar formula instead (the reference the tests
    /// compare against: both give the same bytes).
    @inline(never)
    private func decide(_ probe: ColourProbe) {
        let width = alphaSize.width
        // Nothing read yet by the column searches this frame.
        upThrough.update(repeating: Int32.min / 2, count: width)
        upLast.update(repeating: -1, count: width)
        downFirst.update(repeating: -1, count: width)
        downUntil.update(repeating: 0, count: width)
        // Read once: a stored `var` of the class is an exclusivity-checked access (a runtime
        // call) where it is read.
        let vectorised = self.vectorised
        for y in 0..<alphaSize.height {
            let rowMarks = uncertain + y * width
            let row = plane + y * width
            var x = 0
            while true {
                x = firstMark(y: y, from: x)
                if x >= width { break }
                var end = x + 1
                if vectorised {
                    end = Self.sureFrom(rowMarks, x + 1, width: width)
                } else {
                    while end < width && rowMarks[end] != 0 { end += 1 }
                }
                if vectorised {
                    decideRun(from: x, to: end, y: y, leftSubject: x > 0 && row[x - 1] >= 128,
                              rightSubject: end < width && row[end] >= 128, probe)
                } else {
                    var left = Sample()
                    if x > 0 { left = Sample(subject: row[x - 1] >= 128, colour: probe.colour(x: x - 1, y: y)) }
                    var right = Sample()
                    if end < width { right = Sample(subject: row[end] >= 128, colour: probe.colour(x: end, y: y)) }
                    for p in x..<end {
                        let references = references(p: p, y: y, run: x..<end, left: left, right: right, remembered: false, probe)
                        decide(x: p, y: y, references, probe)
                    }
                }
                x = end
            }
        }
    }

    /// The first sure pixel (mark 0) of a row of marks at or after `start`, or `width`. Marks are
    /// 0, 1 or `decided`, so a byte is zero exactly where (m - 1) & ~m has its top bit, and the
    /// lowest such bit of a word is its first zero byte (the borrow only reaches bytes above it).
    @inline(__always)
    private static func sureFrom(_ marks: UnsafeMutablePointer<UInt8>, _ start: Int, width: Int) -> Int {
        var x = start
        let raw = UnsafeRawPointer(marks)
        while x + 8 <= width {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: x, as: UInt64.self))
            let zero = (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
            if zero != 0 { return x + zero.trailingZeroBitCount >> 3 }
            x += 8
        }
        while x < width && marks[x] != 0 { x += 1 }
        return x
    }

    /// The sure samples pixel `p` of the uncertain `run` in row `y` decides from.
    @inline(__always)
    private func references(p: Int, y: Int, run: Range<Int>, left: Sample, right: Sample, remembered: Bool,
                            _ probe: ColourProbe) -> References {
        var references = References()
        if run.lowerBound > 0 && p &- run.lowerBound < lookout { references.add(left) }
        if run.upperBound < alphaSize.width && run.upperBound &- p <= lookout { references.add(right) }
        if !references.both {
            if remembered {
                references.add(sure(x: p, row: sureAbove(x: p, y: y), probe))
                references.add(sure(x: p, row: sureBelow(x: p, y: y), probe))
            } else {
                references.add(walk(x: p, y: y, step: -1, probe))
                references.add(walk(x: p, y: y, step: 1, probe))
            }
        }
        return references
    }

    /// One run through the lanes: references and colours gathered, decided at once, written back.
    /// The sure pixels either side of the run (`leftSubject`, `rightSubject` their sides) have
    /// their colours read with the run's, in the same lanes, rather than one by one.
    @inline(__always)
    private func decideRun(from x: Int, to end: Int, y: Int, leftSubject: Bool, rightSubject: Bool, _ probe: ColourProbe) {
        let width = alphaSize.width
        let count = end - x
        let first = x > 0 ? x - 1 : x
        let last = end < width ? end + 1 : end
        let (r, g, b) = (lanes.colourR, lanes.colourG, lanes.colourB)
        // From one before the run's colours (EdgeLanes' colour rows have room before them).
        probe.colours(x: first, y: y, count: last - first, r: r - (x - first), g: g - (x - first), b: b - (x - first))
        var left = Sample()
        if x > 0 { left = Sample(subject: leftSubject, colour: SIMD3(r[-1], g[-1], b[-1])) }
        var right = Sample()
        if end < width { right = Sample(subject: rightSubject, colour: SIMD3(r[count], g[count], b[count])) }
        if x > 0 && end < width && count <= lookout && left.subject != right.subject {
            // Every pixel of the run is within reach of both ends: the same two samples for all,
            // and where they are alike colour decides none of it.
            let subject = left.subject ? left.colour : right.colour
            let ground = left.subject ? right.colour : left.colour
            guard Int(EdgeLanes.contrast(subject: subject, ground: ground)) >= Self.minimumContrast else { return }
            lanes.solve(count: count, subject: subject, ground: ground)
        } else {
            gatherReferences(from: x, to: end, y: y, left: left, right: right, probe)
            lanes.solve(count: count)
        }
        let base = y &* width &+ x
        let alpha = lanes.alpha
        let plane = self.plane + base
        let marks = uncertain + base
        var k = 0
        while k < count {
            if alpha[k] < 0 {
                k &+= 1
                continue
            }
            let first = k
            repeat {
                plane[k] = UInt8(truncatingIfNeeded: alpha[k])
                marks[k] = Self.decided
                k &+= 1
            } while k < count && alpha[k] >= 0
            noteDecided(base &+ first, count: k &- first)
        }
    }

    @inline(never)
    private func gatherReferences(from x: Int, to end: Int, y: Int, left: Sample, right: Sample, _ probe: ColourProbe) {
        let run = Range(uncheckedBounds: (x, end))
        for k in 0..<(end &- x) {
            let r = references(p: x &+ k, y: y, run: run, left: left, right: right, remembered: true, probe)
            lanes.subjectR[k] = r.subject.x
            lanes.subjectG[k] = r.subject.y
            lanes.subjectB[k] = r.subject.z
            lanes.subjectCount[k] = r.subjectCount
            lanes.groundR[k] = r.ground.x
            lanes.groundG[k] = r.ground.y
            lanes.groundB[k] = r.ground.z
            lanes.groundCount[k] = r.groundCount
        }
    }

    /// The sample of sure pixel (x, row) that `sureAbove` or `sureBelow` found (none for -1).
    @inline(__always)
    private func sure(x: Int, row: Int, _ probe: ColourProbe) -> Sample {
        guard row >= 0 else { return Sample() }
        return Sample(subject: plane[row &* alphaSize.width &+ x] >= 128, colour: probe.colour(x: x, y: row))
    }

    /// The nearest sure pixel up (step -1) or down (step 1) from (x, y) within `lookout`, by
    /// walking every row (the reference form, `vectorised` false; `sureAbove` and `sureBelow`
    /// remember what they have read).
    private func walk(x: Int, y: Int, step: Int, _ probe: ColourProbe) -> Sample {
        let width = alphaSize.width
        var sy = y
        for _ in 0..<lookout {
            sy += step
            if sy < 0 || sy >= alphaSize.height { break }
            let index = sy * width + x
            if uncertain[index] != 0 { continue }
            return Sample(subject: plane[index] >= 128, colour: probe.colour(x: x, y: sy))
        }
        return Sample()
    }

    // ColumnReads. The searches come in rising rows within a frame (`decide` goes down the rows)
    // and whether a pixel is sure does not change while deciding (decided pixels stay marked),
    // so each column remembers what it has read and no mark of it is read twice: the searches
    // walked up to `lookout` rows both ways at every pixel of a long uncertain run. Up: rows
    // through `upThrough` were read, `upLast` the nearest sure one at or above it that a search
    // can still need (-1 none). Down: `downFirst` the first sure row after the rows last read, or
    // -1 with `downUntil` the end of the rows read (none of them sure).

    /// The nearest sure row above (x, y) within `lookout`, or -1.
    @inline(__always)
    private func sureAbove(x: Int, y: Int) -> Int {
        let width = alphaSize.width
        let steps = min(lookout, y)
        guard steps > 0 else { return -1 }
        var last = Int(upLast[x])
        let through = Int(upThrough[x])
        if through &+ 1 < y &- steps { last = -1 }
        var row = y &- 1
        let bottom = max(through &+ 1, y &- steps)
        while row >= bottom {
            if uncertain[row &* width &+ x] == 0 {
                last = row
                break
            }
            row &-= 1
        }
        upThrough[x] = Int32(truncatingIfNeeded: y &- 1)
        upLast[x] = Int32(truncatingIfNeeded: last)
        return last >= y &- steps ? last : -1
    }

    /// The nearest sure row below (x, y) within `lookout`, or -1.
    @inline(__always)
    private func sureBelow(x: Int, y: Int) -> Int {
        let width = alphaSize.width
        let steps = min(lookout, alphaSize.height &- 1 &- y)
        guard steps > 0 else { return -1 }
        let first = Int(downFirst[x])
        if first > y { return first <= y &+ steps ? first : -1 }
        var row = first >= 0 ? y &+ 1 : max(Int(downUntil[x]), y &+ 1)
        while row <= y &+ steps {
            if uncertain[row &* width &+ x] == 0 {
                downFirst[x] = Int32(truncatingIfNeeded: row)
                return row
            }
            row &+= 1
        }
        downFirst[x] = -1
        downUntil[x] = Int32(truncatingIfNeeded: y &+ steps &+ 1)
        return -1
    }

    @inline(__always)
    private func decide(x: Int, y: Int, _ references: References, _ probe: ColourProbe) {
        guard let alpha = Self.alpha(subject: references.subject, subjectCount: references.subjectCount,
                                     ground: references.ground, groundCount: references.groundCount,
                                     colour: probe.colour(x: x, y: y)) else { return }
        let width = alphaSize.width
        plane[y * width + x] = alpha
        uncertain[y * width + x] = Self.decided
        noteDecided(y * width + x, count: 1)
    }

    /// Lists `count` decided pixels from `index` along a row for `restoreDecided`.
    @inline(__always)
    private func noteDecided(_ index: Int, count: Int) {
        let at = decidedCount
        if at &+ 2 <= decidedCapacity {
            decidedList[at] = Int32(truncatingIfNeeded: index)
            decidedList[at &+ 1] = Int32(truncatingIfNeeded: count)
        }
        decidedCount = at &+ 2
    }

    /// The two-colour decision, scalar: F and B the means of the subject's and background's
    /// samples (sums over counts), I the pixel's colour; nil where colour says nothing (a side
    /// unsampled, F and B alike, or I far off their line). EdgeLanes computes the same in lanes.
    static func alpha(subject: SIMD3<Int32>, subjectCount: Int32, ground: SIMD3<Int32>, groundCount: Int32,
                      colour: SIMD3<Int32>) -> UInt8? {
        guard subjectCount > 0 && groundCount > 0 else { return nil }
        let f = subject / SIMD3<Int32>(repeating: subjectCount)
        let b = ground / SIMD3<Int32>(repeating: groundCount)
        let d = f &- b
        let contrast = Int((d &* d).wrappedSum())
        guard contrast >= minimumContrast else { return nil }
        let e = colour &- b
        let along = Int((e &* d).wrappedSum())
        let length = Int((e &* e).wrappedSum())
        // Squared distance from the F-B line, times |F - B|^2: far off it, colour says nothing.
        let off = length * contrast - along * along
        guard off <= contrast * contrast else { return nil }
        return UInt8(min(255, max(0, (along * 255 + contrast / 2) / contrast)))
    }

    /// A sure pixel's side and colour; `found` false when there was none in reach.
    private struct Sample {
        var found = false
        var subject = false
        var colour = SIMD3<Int32>(0, 0, 0)

        init() {}
        init(subject: Bool, colour: SIMD3<Int32>) {
            found = true
            self.subject = subject
            self.colour = colour
        }
    }

    /// Sums of the subject's and the background's sample colours.
    private struct References {
        var subject = SIMD3<Int32>(0, 0, 0)
        var subjectCount: Int32 = 0
        var ground = SIMD3<Int32>(0, 0, 0)
        var groundCount: Int32 = 0

        var both: Bool { subjectCount > 0 && groundCount > 0 }

        @inline(__always)
        mutating func add(_ sample: Sample) {
            guard sample.found else { return }
            if sample.subject {
                subject &+= sample.colour
                subjectCount += 1
            } else {
                ground &+= sample.colour
                groundCount += 1
            }
        }
    }
}

/// Reads one pixel of a colour frame as R, G, B whatever the camera's format, converting YUYV and
/// NV12 with the compositor's own BT.601 formula: the matte's colour decisions must not depend on
/// the format, or `backdrop render` of a recording (RGB) would not reproduce what the box showed
/// from the same frame in YUYV (the e2e's photo-against-render check found exactly that).
struct ColourProbe {
    let view: ImageView

    @inline(__always)
    private static func rgb(y: UInt8, cb: UInt8, cr: UInt8) -> SIMD3<Int32> {
        let (r, g, b) = YCbCr.rgb(y: Int32(y), cb: Int32(cb), cr: Int32(cr))
        return SIMD3<Int32>(r, g, b)
    }

    init(_ view: ImageView) { self.view = view }

    /// Pixels x..<x+count of row y into r, g, b: the format decided once for the run. For YUYV,
    /// r, g and b must have room for an element before the first and 15 after the last (EdgeLanes'
    /// colour rows do).
    func colours(x: Int, y: Int, count: Int, r: UnsafeMutablePointer<Int32>, g: UnsafeMutablePointer<Int32>,
                 b: UnsafeMutablePointer<Int32>) {
        let row = view.row(y).assumingMemoryBound(to: UInt8.self)
        switch view.format {
        case .rgb24:
            for k in 0..<count {
                let p = row + 3 * (x + k)
                r[k] = Int32(p[0])
                g[k] = Int32(p[1])
                b[k] = Int32(p[2])
            }
        case .xrgb8888, .argb8888:
            for k in 0..<count {
                let p = row + 4 * (x + k)
                r[k] = Int32(p[2])
                g[k] = Int32(p[1])
                b[k] = Int32(p[0])
            }
        case .yuyv:
            // 16 pixels at a time (the last 8 or fewer in 8) from the even pixel at or before x,
            // in lanes: the 32 bytes as
            // 16-bit lanes are Y in the low byte and Cb, Cr in turn in the high one, each pair's
            // chroma spread to both of its lanes, then the compositor's own 16-lane conversion.
            // The first group may write r[-1] and the last up to 15 past count (EdgeLanes leaves
            // room); a group that would read past the row's last pixel is done pixel by pixel.
            let width = view.size.width
            var p = x & ~1
            let end = x &+ count
            while p < end && p &+ 16 <= width {
                if end &- p <= 8 {
                    // The last 8 or fewer in half the lanes (most runs are that short).
                    let lanes = UnsafeRawPointer(row + 2 &* p).loadUnaligned(as: SIMD8<UInt16>.self)
                    let luma = unsafeBitCast(lanes & 0xFF, to: SIMD8<Int16>.self)
                    let pairs = unsafeBitCast(lanes, to: SIMD4<UInt32>.self)
                    let cb = (pairs &>> 8) & 0xFF
                    let cr = pairs &>> 24
                    let blue = unsafeBitCast(cb | (cb &<< 16), to: SIMD8<Int16>.self)
                    let red = unsafeBitCast(cr | (cr &<< 16), to: SIMD8<Int16>.self)
                    let rgb = YCbCr.rgb(y: luma, cb: blue, cr: red)
                    let at = p &- x
                    UnsafeMutableRawPointer(r + at).storeBytes(of: Self.widened(rgb.r), as: SIMD8<Int32>.self)
                    UnsafeMutableRawPointer(g + at).storeBytes(of: Self.widened(rgb.g), as: SIMD8<Int32>.self)
                    UnsafeMutableRawPointer(b + at).storeBytes(of: Self.widened(rgb.b), as: SIMD8<Int32>.self)
                    p &+= 8
                    break
                }
                let lanes = UnsafeRawPointer(row + 2 &* p).loadUnaligned(as: SIMD16<UInt16>.self)
                let luma = unsafeBitCast(lanes & 0xFF, to: SIMD16<Int16>.self)
                let pairs = unsafeBitCast(lanes, to: SIMD8<UInt32>.self)
                let cb = (pairs &>> 8) & 0xFF
                let cr = pairs &>> 24
                let blue = unsafeBitCast(cb | (cb &<< 16), to: SIMD16<Int16>.self)
                let red = unsafeBitCast(cr | (cr &<< 16), to: SIMD16<Int16>.self)
                let rgb = YCbCr.rgb(y: luma, cb: blue, cr: red)
                let at = p &- x
                UnsafeMutableRawPointer(r + at).storeBytes(of: Self.widened(rgb.r), as: SIMD16<Int32>.self)
                UnsafeMutableRawPointer(g + at).storeBytes(of: Self.widened(rgb.g), as: SIMD16<Int32>.self)
                UnsafeMutableRawPointer(b + at).storeBytes(of: Self.widened(rgb.b), as: SIMD16<Int32>.self)
                p &+= 16
            }
            for q in max(p, x)..<max(end, max(p, x)) {
                let c = colour(x: q, y: y)
                r[q - x] = c.x
                g[q - x] = c.y
                b[q - x] = c.z
            }
        default:
            for k in 0..<count {
                let c = colour(x: x + k, y: y)
                r[k] = c.x
                g[k] = c.y
                b[k] = c.z
            }
        }
    }

    /// Lanes to 32 bits one by one, which the compiler turns into unpacks: the SIMD conversion
    /// initialiser stays an out-of-line generic call.
    @inline(__always)
    private static func widened(_ lanes: SIMD16<Int16>) -> SIMD16<Int32> {
        var wide = SIMD16<Int32>()
        for i in 0..<16 { wide[i] = Int32(truncatingIfNeeded: lanes[i]) }
        return wide
    }

    @inline(__always)
    private static func widened(_ lanes: SIMD8<Int16>) -> SIMD8<Int32> {
        var wide = SIMD8<Int32>()
        for i in 0..<8 { wide[i] = Int32(truncatingIfNeeded: lanes[i]) }
        return wide
    }

    @inline(__always)
    func colour(x: Int, y: Int) -> SIMD3<Int32> {
        let row = view.row(y).assumingMemoryBound(to: UInt8.self)
        switch view.format {
        case .yuyv:
            let pair = row + 4 &* (x &>> 1)
            return Self.rgb(y: row[2 &* x], cb: pair[1], cr: pair[3])
        case .nv12:
            guard let chroma = view.chromaPlane else { return Self.rgb(y: row[x], cb: 128, cr: 128) }
            let line = (chroma + (y >> 1) * view.bytesPerRow).assumingMemoryBound(to: UInt8.self) + 2 * (x >> 1)
            return Self.rgb(y: row[x], cb: line[0], cr: line[1])
        case .rgb24:
            let p = row + 3 * x
            return SIMD3<Int32>(Int32(p[0]), Int32(p[1]), Int32(p[2]))
        case .xrgb8888, .argb8888:
            // Little-endian B, G, R, A in memory.
            let p = row + 4 * x
            return SIMD3<Int32>(Int32(p[2]), Int32(p[1]), Int32(p[0]))
        case .z16, .alpha8:
            let value = Int32(row[x])
            return SIMD3<Int32>(value, value, value)
        }
    }
}
