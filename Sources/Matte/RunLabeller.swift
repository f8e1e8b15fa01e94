import KernelIO

/// Connected components of the depth class map, computed on runs rather than pixels: one
/// union-find node per horizontal run of equal class, so the cost follows the number of edges in
/// the picture, not its area. All arrays are sized at init.
///
/// Two passes over the same runs:
///  1. holes (no depth reading) are filled when most of what surrounds them is foreground; the
///     image border counts as background, so the unknown beyond the frame is never claimed;
///  2. on the resulting foreground/background picture, foreground islands smaller than the
///     minimum blob are dropped, and background islands enclosed by the subject and smaller than a
///     quarter of it are filled (noise readings inside a person, not the gap under an arm).
final class RunLabeller {
    static let background: UInt8 = 0
    static let hole: UInt8 = 1
    static let foreground: UInt8 = 2
    /// Percentage of a hole's boundary that must be foreground for the hole to become subject.
    /// Sensor shadows sit between subject and wall, about half each, and stay out.
    static let holeFillPercent: Int32 = 60

    let width: Int
    let height: Int
    /// More runs than this in one frame means pure noise; the frame is then matted per pixel.
    var capacity: Int { runs.capacity }
    var count: Int { runs.count }

    private let runs: RunTable
    private let kind: UnsafeMutablePointer<UInt8>
    /// Two counts per run in one word, so one add carries both through the unions and the
    /// flattening: pass 1, a hole's foreground contact (high half) and background contact (low
    /// half), kept for holes only (other runs' words are left as they were); pass 2, "touches
    /// the frame border" (high) and area (low). Neither half comes near
    /// 2^32 (both are bounded by 4 x the pixels), so the low half never carries into the high.
    private let counts: UnsafeMutablePointer<UInt64>
    /// Pass 1's pairs of vertically touching runs of different classes, upper run in the low
    /// half and lower in the high: the only vertical links pass 2 can add (see `linkBinary`). At
    /// most one per step of the walk over two rows' runs, so at most two per run.
    private let crossPairs: UnsafeMutablePointer<UInt64>
    private var crossCount = 0
    private let memory: AlignedBuffer

    init(width: Int, height: Int) throws(SystemError) {
        self.width = width
        self.height = height
        runs = try RunTable(width: width, height: height)
        var layout = BufferLayout()
        let kindSlot = layout.reserve(UInt8.self, count: runs.capacity)
        let countsSlot = layout.reserve(UInt64.self, count: runs.capacity)
        let crossSlot = layout.reserve(UInt64.self, count: 2 * runs.capacity)
        memory = try AlignedBuffer(layout: layout)
        kind = memory.pointer(kindSlot)
        counts = memory.pointer(countsSlot)
        crossPairs = memory.pointer(crossSlot)
    }

    /// Reads the class map (width x height, packed) and writes the binary mask (0 or 255, packed).
    /// Returns false when the frame had more runs than `capacity`; the mask is then left for the
    /// caller to fill per pixel.
    func label(classes: UnsafePointer<UInt8>, minimumBlob: Int, into mask: UnsafeMutablePointer<UInt8>) -> Bool {
        label(classes: classes, runEnds: ClassBytes(), minimumBlob: minimumBlob, into: mask)
    }

    /// `label` of the class map `segments` has just painted (its `segment` returned true, and
    /// nothing has written the map since): its runs, each of one class, are passed over whole
    /// instead of read byte by byte. The same result.
    func label(classes: UnsafePointer<UInt8>, paintedBy segments: DepthSegments, minimumBlob: Int,
               into mask: UnsafeMutablePointer<UInt8>) -> Bool {
        label(classes: classes, runEnds: segments.paintedRuns, minimumBlob: minimumBlob, into: mask)
    }

    private func label<Ends: ClassRunEnds>(classes: UnsafePointer<UInt8>, runEnds: Ends, minimumBlob: Int,
                                           into mask: UnsafeMutablePointer<UInt8>) -> Bool {
        guard extractAndLinkRuns(classes: classes, runEnds: runEnds) else { return false }
        flattenSummingContacts()
        linkBinary()
        paint(into: mask, minimumBlob: Int32(clamping: minimumBlob))
        return true
    }

    // MARK: pass 1

    /// A hole's count of a contact with a run of class `other` (background or foreground): one
    /// in the low half for background, in the high half for foreground, without a branch.
    @inline(__always)
    private static func contactUnit(_ other: UInt8) -> UInt64 {
        1 &<< (UInt64(other & foreground) &<< 4)
    }

    /// Finds each row's runs and, as each is made, walks the runs above it that it overlaps
    /// (4-connectivity): those of its class are joined to it, the others tell a hole what borders
    /// it and are kept for pass 2. The runs of two rows tile the same columns, so the runs above
    /// one run are a contiguous stretch, ending where the next run's stretch begins.
    @inline(never)
    private func extractAndLinkRuns<Ends: ClassRunEnds>(classes: UnsafePointer<UInt8>, runEnds ends: Ends) -> Bool {
        // A local copy: its cursor stays in registers rather than going to memory at every run.
        var runEnds = ends
        // The tables as locals: read through `self` and `runs`, every store through one of them
        // might have changed the objects' fields, so each access reloaded the pointer (run
        // indices and columns are far inside Int32, so no overflow checks either).
        let start = runs.start
        let end = runs.end
        let parent = runs.parent
        let rowFirst = runs.rowFirst
        let kind = self.kind
        let counts = self.counts
        let crossPairs = self.crossPairs
        let width = self.width
        let height = self.height
        let capacity = self.capacity
        var crosses = 0
        var n = 0
        let lastRow = height &- 1
        for y in 0..<height {
            let row = classes + y &* width
            rowFirst[y] = Int32(truncatingIfNeeded: n)
            runEnds.startRow(y)
            // The frame border is unknown territory: it argues against filling a hole, as a
            // background contact (the first and last rows along their length, the side columns
            // once per row).
            let edgeRow = y == 0 || y == lastRow
            // The run above that reaches past the columns done so far, and where it starts.
            var above = y > 0 ? Int(rowFirst[y &- 1]) : 0
            var aboveStart: Int32 = 0
            var leftKind = Self.background
            var x = 0
            while x < width {
                let k = row[x]
                let e = runEnds.end(row: row, from: x, width: width, value: k)
                if n == capacity {
                    runs.count = n
                    crossCount = crosses
                    return false
                }
                let e32 = Int32(truncatingIfNeeded: e)
                start[n] = Int32(truncatingIfNeeded: x)
                end[n] = e32
                kind[n] = k
                parent[n] = Int32(truncatingIfNeeded: n)
                // Only holes' contacts are ever read (a component is of one class, and pass 2
                // measures afresh), so only holes' are kept: this run and the one on its left
                // (of another class) touch along one pixel.
                // Without a branch (adding 0 unless the left run is a hole: bit 0 of a class is
                // set exactly for a hole), as which it is is unpredictable; the first run of the
                // frame adds 0 to itself.
                counts[max(n &- 1, 0)] &+= Self.contactUnit(k) &* UInt64(leftKind & Self.hole)
                if k == Self.hole {
                    var own: UInt64 = x > 0 ? Self.contactUnit(leftKind) : 1
                    if edgeRow { own &+= UInt64(truncatingIfNeeded: e &- x) }
                    if e == width { own &+= 1 }
                    counts[n] = own
                }
                if y > 0 {
                    var root = n
                    while true {
                        let aboveEnd = end[above]
                        let aboveKind = kind[above]
                        if aboveKind == k {
                            // With this run's root kept in hand rather than found again.
                            root = RunTable.join(root: root, above, in: parent)
                        } else if (aboveKind | k) & Self.hole != 0 {
                            // A hole and a run of another class. Pairs of background and
                            // foreground are never joined in pass 2, so they are not kept.
                            let overlap = UInt64(truncatingIfNeeded: min(aboveEnd, e32)
                                                 &- max(aboveStart, Int32(truncatingIfNeeded: x)))
                            if aboveKind == Self.hole {
                                counts[above] &+= overlap &* Self.contactUnit(k)
                            } else {
                                counts[n] &+= overlap &* Self.contactUnit(aboveKind)
                            }
                            crossPairs[crosses] = UInt64(truncatingIfNeeded: above) | UInt64(truncatingIfNeeded: n) &<< 32
                            crosses &+= 1
                        }
                        if aboveEnd > e32 { break }
                        aboveStart = aboveEnd
                        above &+= 1
                        if aboveEnd == e32 { break }
                    }
                }
                leftKind = k
                n &+= 1
                x = e
            }
        }
        rowFirst[height] = Int32(truncatingIfNeeded: n)
        runs.count = n
        crossCount = crosses
        return true
    }

    @inline(never)
    private func flattenSummingContacts() {
        let parent = runs.parent
        let counts = self.counts
        for i in 0..<count {
            let p = Int(parent[i])
            if p != i {
                let root = Int(parent[p])
                parent[i] = Int32(truncatingIfNeeded: root)
                counts[root] &+= counts[i]
            }
        }
    }

    /// Whether a hole whose component's contacts (pass 1's counts at its root) are `both` is
    /// filled: holes that stay holes become background.
    @inline(__always)
    private static func filled(_ both: UInt64) -> Bool {
        let inside = Int32(truncatingIfNeeded: both &>> 32)
        let total = inside + Int32(truncatingIfNeeded: both)
        return inside > 0 && inside * 100 >= holeFillPercent * total
    }

    // MARK: pass 2

    /// Pass 1's components stay joined: their runs were of one class, and a hole's runs all
    /// take its root's decision, so they are of one class again. What pass 2 adds are links
    /// between runs whose classes differed and now agree: neighbours in a row (always of
    /// different classes in pass 1) and pass 1's vertical cross pairs. The same components as
    /// joining every touching pair of one class afresh, without walking the rows again.
    @inline(never)
    private func linkBinary() {
        // The tables as locals, as in `extractAndLinkRuns`.
        let parent = runs.parent
        let rowFirst = runs.rowFirst
        let kind = self.kind
        let crossPairs = self.crossPairs
        let counts = self.counts
        let count = self.count
        // Each hole decided as its row is walked (reusing `kind` for the binary picture), from
        // its pass 1 root's contacts: the unions before it reach only lower runs and their
        // roots, and change no counts, so its parent and that root's counts are pass 1's still.
        for y in 0..<height {
            let first = Int(rowFirst[y])
            let last = Int(rowFirst[y &+ 1])
            var left = Self.background
            var i = first
            while i < last {
                var k = kind[i]
                if k == Self.hole {
                    k = Self.filled(counts[Int(parent[i])]) ? Self.foreground : Self.background
                    kind[i] = k
                }
                if i > first && k == left { Self.union(i &- 1, i, in: parent) }
                left = k
                i &+= 1
            }
        }
        for p in 0..<crossCount {
            let pair = crossPairs[p]
            let upper = Int(truncatingIfNeeded: pair & 0xFFFF_FFFF)
            let lower = Int(truncatingIfNeeded: pair &>> 32)
            if kind[upper] == kind[lower] { Self.union(upper, lower, in: parent) }
        }
        // Area and "touches the frame border" over all runs in one loop without branches (vector
        // code), then the first and last rows' runs, which touch it whatever their columns.
        Self.measureRuns(start: runs.start, end: runs.end, count: count, width: Int32(width), into: counts)
        let touches: UInt64 = 1 &<< 32
        for i in 0..<Int(rowFirst[1]) { counts[i] |= touches }
        for i in Int(rowFirst[height - 1])..<count { counts[i] |= touches }
        for i in 0..<count {
            let p = Int(parent[i])
            if p != i {
                let root = Int(parent[p])
                parent[i] = Int32(truncatingIfNeeded: root)
                counts[root] &+= counts[i]
            }
        }
    }

    /// `RunTable.union` (the same components, the lower root the parent), each side first tried
    /// as one step from its root: after pass 1's flattening nearly every run is.
    @inline(__always)
    private static func union(_ a: Int, _ b: Int, in parent: UnsafeMutablePointer<Int32>) {
        @inline(__always) func root(_ x: Int) -> Int {
            let p = Int(parent[x])
            return Int(parent[p]) == p ? p : RunTable.find(x, in: parent)
        }
        let ra = root(a)
        let rb = root(b)
        if ra < rb {
            parent[rb] = Int32(truncatingIfNeeded: ra)
        } else if rb < ra {
            parent[ra] = Int32(truncatingIfNeeded: rb)
        }
    }

    /// Each run's area (low half) and 1 in the high half when it reaches a side of the frame.
    @inline(__always)
    private static func measureRuns(start: UnsafePointer<Int32>, end: UnsafePointer<Int32>, count: Int, width: Int32,
                                    into counts: UnsafeMutablePointer<UInt64>) {
        for i in 0..<count {
            let s = start[i]
            let e = end[i]
            let touches: UInt64 = (s == 0 ? 1 : 0) | (e == width ? 1 : 0)
            counts[i] = UInt64(truncatingIfNeeded: UInt32(bitPattern: e &- s)) | touches &<< 32
        }
    }

    /// Pass 2's decisions, then the runs written as spans of one value. Foreground islands
    /// smaller than `minimumBlob` become background, background islands away from the border and
    /// smaller than a quarter of it foreground. Neighbouring runs of one value, in a row or across
    /// rows, are one span, written 64 bytes at a time: a span's last stores run on past its end,
    /// over bytes the spans after it write again, and only spans ending within 64 bytes of the
    /// frame's end are written exactly. Replaces a pass storing the decisions and a memset per
    /// run, most of them short.
    @inline(never)
    private func paint(into mask: UnsafeMutablePointer<UInt8>, minimumBlob: Int32) {
        let start = runs.start
        let parent = runs.parent
        let rowFirst = runs.rowFirst
        let kind = self.kind
        let counts = self.counts
        let count = self.count
        let width = self.width
        let total = width &* height
        let enclosedLimit = minimumBlob / 4
        guard count > 0 else { return }
        @inline(__always) func decided(_ i: Int) -> Bool {
            let both = counts[Int(parent[i])]
            let area = Int32(truncatingIfNeeded: both)
            if kind[i] == Self.foreground { return area >= minimumBlob }
            return both &>> 32 == 0 && area < enclosedLimit
        }
        @inline(__always) func fill(_ from: Int, _ to: Int, _ foreground: Bool) {
            let byte: UInt8 = foreground ? 255 : 0
            if to &+ 64 <= total {
                let lanes = SIMD16<UInt8>(repeating: byte)
                let raw = UnsafeMutableRawPointer(mask)
                var p = from
                repeat {
                    raw.storeBytes(of: lanes, toByteOffset: p, as: SIMD16<UInt8>.self)
                    raw.storeBytes(of: lanes, toByteOffset: p &+ 16, as: SIMD16<UInt8>.self)
                    raw.storeBytes(of: lanes, toByteOffset: p &+ 32, as: SIMD16<UInt8>.self)
                    raw.storeBytes(of: lanes, toByteOffset: p &+ 48, as: SIMD16<UInt8>.self)
                    p &+= 64
                } while p < to
            } else {
                (mask + from).update(repeating: byte, count: to &- from)
            }
        }
        var spanStart = 0
        var spanForeground = decided(0)
        for y in 0..<height {
            let last = Int(rowFirst[y &+ 1])
            var i = Int(rowFirst[y])
            while i < last {
                let foreground = decided(i)
                if foreground != spanForeground {
                    let at = y &* width &+ Int(start[i])
                    fill(spanStart, at, spanForeground)
                    spanStart = at
                    spanForeground = foreground
                }
                i &+= 1
            }
        }
        fill(spanStart, total, spanForeground)
    }

    /// `runEnd` for the labeller's loop: the same index. The scan over equal bytes is a function
    /// of its own, so the positions the code after it derives from its result (the next words,
    /// the row end's mask) are not carried through the scan as induction variables of their own,
    /// which the optimiser did when it was inlined (eight adds per 32 bytes instead of one).
    @inline(__always)
    static func classRunEnd(row: UnsafePointer<UInt8>, from: Int, width: Int, value: UInt8) -> Int {
        let pattern = UInt64(value) &* 0x0101_0101_0101_0101
        let raw = UnsafeRawPointer(row)
        let e = skipEqualWords(raw, from: from &+ 1, width: width, pattern: pattern)
        // A change found within whole words is the answer; otherwise the row's end is near.
        if e &+ 8 <= width { return e }
        guard e < width else { return width }
        if width >= 8 {
            // The row's last eight bytes, those before `e` (already matched) masked out.
            let at = width &- 8
            let w = (UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt64.self)) ^ pattern)
                & (~0 &<< UInt64(truncatingIfNeeded: (e &- at) &<< 3))
            return w == 0 ? width : at &+ w.trailingZeroBitCount &>> 3
        }
        var x = e
        while x < width && row[x] == value { x &+= 1 }
        return x
    }

    /// From `from`, the first index whose byte differs from `pattern`'s, found in whole words;
    /// or, when none differs, the first index within eight bytes of `width`.
    @inline(never)
    private static func skipEqualWords(_ raw: UnsafeRawPointer, from: Int, width: Int, pattern: UInt64) -> Int {
        var e = from
        while e &+ 32 <= width {
            let a = raw.loadUnaligned(fromByteOffset: e, as: UInt64.self)
            let b = raw.loadUnaligned(fromByteOffset: e &+ 8, as: UInt64.self)
            let c = raw.loadUnaligned(fromByteOffset: e &+ 16, as: UInt64.self)
            let d = raw.loadUnaligned(fromByteOffset: e &+ 24, as: UInt64.self)
            if ((a ^ pattern) | (b ^ pattern) | (c ^ pattern) | (d ^ pattern)) != 0 { break }
            e &+= 32
        }
        while e &+ 8 <= width {
            let w = raw.loadUnaligned(fromByteOffset: e, as: UInt64.self) ^ pattern
            if w != 0 { return e &+ UInt64(littleEndian: w).trailingZeroBitCount &>> 3 }
            e &+= 8
        }
        return e
    }

    /// First index at or after `from + 1` whose byte differs from `value` (or `width`): runs are
    /// long, so 32 bytes are checked per step and only the last step looks at single bytes.
    @inline(__always)
    static func runEnd(row: UnsafePointer<UInt8>, from: Int, width: Int, value: UInt8) -> Int {
        var e = from + 1
        let pattern = UInt64(value) &* 0x0101_0101_0101_0101
        let raw = UnsafeRawPointer(row)
        while e + 32 <= width {
            let a = raw.loadUnaligned(fromByteOffset: e, as: UInt64.self) ^ pattern
            let b = raw.loadUnaligned(fromByteOffset: e + 8, as: UInt64.self) ^ pattern
            let c = raw.loadUnaligned(fromByteOffset: e + 16, as: UInt64.self) ^ pattern
            let d = raw.loadUnaligned(fromByteOffset: e + 24, as: UInt64.self) ^ pattern
            if (a | b | c | d) != 0 { break }
            e += 32
        }
        while e + 8 <= width {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: e, as: UInt64.self)) ^ pattern
            if word != 0 { return e + word.trailingZeroBitCount >> 3 }
            e += 8
        }
        while e < width && row[e] == value { e += 1 }
        return e
    }
}

/// Where the labeller's runs of one class end, row by row: the first column after `from` whose
/// class differs from `value` (the class at `from`), or `width`; `from` only grows in a row.
protocol ClassRunEnds {
    mutating func startRow(_ y: Int)
    mutating func end(row: UnsafePointer<UInt8>, from: Int, width: Int, value: UInt8) -> Int
}

/// Class runs found by reading the map's bytes.
struct ClassBytes: ClassRunEnds {
    @inline(__always)
    mutating func startRow(_ y: Int) {}

    @inline(__always)
    mutating func end(row: UnsafePointer<UInt8>, from: Int, width: Int, value: UInt8) -> Int {
        RunLabeller.classRunEnd(row: row, from: from, width: width, value: value)
    }
}
