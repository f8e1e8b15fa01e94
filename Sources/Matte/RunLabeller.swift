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
    private let foregroundContact: UnsafeMutablePointer<Int32>
    private let backgroundContact: UnsafeMutablePointer<Int32>
    /// Pass 1's pairs of vertically touching runs of different classes: the only vertical
    /// links pass 2 can add (see `linkBinary`). At most one per step of the walk over two rows'
    /// runs, so at most two per run.
    private let crossUpper: UnsafeMutablePointer<Int32>
    private let crossLower: UnsafeMutablePointer<Int32>
    private var crossCount = 0
    private let memory: AlignedBuffer

    init(width: Int, height: Int) throws(SystemError) {
        self.width = width
        self.height = height
        runs = try RunTable(width: width, height: height)
        var layout = BufferLayout()
        let kindSlot = layout.reserve(UInt8.self, count: runs.capacity)
        let foregroundSlot = layout.reserve(Int32.self, count: runs.capacity)
        let backgroundSlot = layout.reserve(Int32.self, count: runs.capacity)
        let crossUpperSlot = layout.reserve(Int32.self, count: 2 * runs.capacity)
        let crossLowerSlot = layout.reserve(Int32.self, count: 2 * runs.capacity)
        memory = try AlignedBuffer(layout: layout)
        kind = memory.pointer(kindSlot)
        foregroundContact = memory.pointer(foregroundSlot)
        backgroundContact = memory.pointer(backgroundSlot)
        crossUpper = memory.pointer(crossUpperSlot)
        crossLower = memory.pointer(crossLowerSlot)
    }

    /// Reads the class map (width x height, packed) and writes the binary mask (0 or 255, packed).
    /// Returns false when the frame had more runs than `capacity`; the mask is then left for the
    /// caller to fill per pixel.
    func label(classes: UnsafePointer<UInt8>, minimumBlob: Int, into mask: UnsafeMutablePointer<UInt8>) -> Bool {
        guard extractAndLinkRuns(classes: classes) else { return false }
        flattenSummingContacts()
        decideHoles()
        linkBinary()
        decideIslands(minimumBlob: Int32(clamping: minimumBlob))
        paint(into: mask)
        return true
    }

    // MARK: pass 1

    @inline(never)
    private func extractAndLinkRuns(classes: UnsafePointer<UInt8>) -> Bool {
        // The tables as locals: read through `self` and `runs`, every store through one of them
        // might have changed the objects' fields, so each access reloaded the pointer (run
        // indices and columns are far inside Int32, so no overflow checks either).
        let start = runs.start
        let end = runs.end
        let parent = runs.parent
        let rowFirst = runs.rowFirst
        let kind = self.kind
        let foregroundContact = self.foregroundContact
        let backgroundContact = self.backgroundContact
        let crossUpper = self.crossUpper
        let crossLower = self.crossLower
        let width = self.width
        let height = self.height
        let capacity = self.capacity
        @inline(__always) func index32(_ i: Int) -> Int32 { Int32(truncatingIfNeeded: i) }
        var crosses = 0
        var n = 0
        let lastRow = height - 1
        for y in 0..<height {
            let row = classes + y * width
            rowFirst[y] = index32(n)
            var x = 0
            while x < width {
                let k = row[x]
                let e = Self.runEnd(row: row, from: x, width: width, value: k)
                if n == capacity {
                    runs.count = n
                    crossCount = crosses
                    return false
                }
                start[n] = index32(x)
                end[n] = index32(e)
                kind[n] = k
                parent[n] = index32(n)
                // The frame border is unknown territory: it argues against filling a hole.
                var border: Int32 = 0
                if y == 0 || y == lastRow { border = index32(e &- x) }
                if x == 0 { border &+= 1 }
                if e == width { border &+= 1 }
                // The run on the left (a different class) is a contact of length 1 either way,
                // counted here without branches on the classes: they mispredicted.
                let isHole: Int32 = k == Self.hole ? 1 : 0
                let isForeground: Int32 = k == Self.foreground ? 1 : 0
                var leftHole: Int32 = 0
                var leftForeground: Int32 = 0
                if x > 0 {
                    let left = kind[n &- 1]
                    leftHole = left == Self.hole ? 1 : 0
                    leftForeground = left == Self.foreground ? 1 : 0
                    foregroundContact[n &- 1] &+= leftHole & isForeground
                    backgroundContact[n &- 1] &+= leftHole & (1 &- isForeground)
                }
                let hasLeft: Int32 = x > 0 ? 1 : 0
                foregroundContact[n] = isHole & leftForeground
                backgroundContact[n] = isHole &* (border &+ (hasLeft & (1 &- leftForeground)))
                n &+= 1
                x = e
            }
            guard y > 0 else { continue }
            // Walks the two rows' runs in step; runs that overlap (4-connectivity) are joined
            // when of one class, and otherwise tell a hole what borders it and are kept for
            // pass 2.
            let current = Int(rowFirst[y])
            var i = Int(rowFirst[y &- 1])
            var j = current
            while i < current && j < n {
                let endI = end[i]
                let endJ = end[j]
                let overlap = min(endI, endJ) &- max(start[i], start[j])
                if overlap > 0 {
                    let kindI = kind[i]
                    let kindJ = kind[j]
                    if kindI == kindJ {
                        RunTable.union(i, j, in: parent)
                    } else {
                        if kindI == Self.hole {
                            if kindJ == Self.foreground { foregroundContact[i] &+= overlap } else { backgroundContact[i] &+= overlap }
                        }
                        if kindJ == Self.hole {
                            if kindI == Self.foreground { foregroundContact[j] &+= overlap } else { backgroundContact[j] &+= overlap }
                        }
                        crossUpper[crosses] = index32(i)
                        crossLower[crosses] = index32(j)
                        crosses &+= 1
                    }
                }
                if endI < endJ {
                    i &+= 1
                } else if endJ < endI {
                    j &+= 1
                } else {
                    i &+= 1
                    j &+= 1
                }
            }
        }
        rowFirst[height] = index32(n)
        runs.count = n
        crossCount = crosses
        return true
    }

    @inline(never)
    private func flattenSummingContacts() {
        let parent = runs.parent
        let foregroundContact = self.foregroundContact
        let backgroundContact = self.backgroundContact
        for i in 0..<count {
            let p = Int(parent[i])
            if p != i {
                let root = Int(parent[p])
                parent[i] = Int32(truncatingIfNeeded: root)
                foregroundContact[root] &+= foregroundContact[i]
                backgroundContact[root] &+= backgroundContact[i]
            }
        }
    }

    @inline(never)
    private func decideHoles() {
        let parent = runs.parent
        let kind = self.kind
        let foregroundContact = self.foregroundContact
        let backgroundContact = self.backgroundContact
        // Reuses `kind` for the binary picture: holes that stay holes become background.
        for i in 0..<count where kind[i] == Self.hole {
            let root = Int(parent[i])
            let inside = foregroundContact[root]
            let total = inside + backgroundContact[root]
            let fill = inside > 0 && inside * 100 >= Self.holeFillPercent * total
            kind[i] = fill ? Self.foreground : Self.background
        }
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
        let crossUpper = self.crossUpper
        let crossLower = self.crossLower
        let foregroundContact = self.foregroundContact
        let backgroundContact = self.backgroundContact
        let count = self.count
        for y in 0..<height {
            let first = Int(rowFirst[y])
            let last = Int(rowFirst[y &+ 1])
            var i = first &+ 1
            while i < last {
                if kind[i] == kind[i &- 1] { RunTable.union(i &- 1, i, in: parent) }
                i &+= 1
            }
        }
        for p in 0..<crossCount {
            let upper = Int(crossUpper[p])
            let lower = Int(crossLower[p])
            if kind[upper] == kind[lower] { RunTable.union(upper, lower, in: parent) }
        }
        // Area in foregroundContact, "touches the frame border" in backgroundContact: over all
        // runs in one loop without branches (vector code), then the first and last rows' runs,
        // which touch it whatever their columns.
        Self.measureRuns(start: runs.start, end: runs.end, count: count, width: Int32(width),
                         area: foregroundContact, touches: backgroundContact)
        for i in 0..<Int(rowFirst[1]) { backgroundContact[i] = 1 }
        for i in Int(rowFirst[height - 1])..<count { backgroundContact[i] = 1 }
        for i in 0..<count {
            let p = Int(parent[i])
            if p != i {
                let root = Int(parent[p])
                parent[i] = Int32(truncatingIfNeeded: root)
                foregroundContact[root] &+= foregroundContact[i]
                backgroundContact[root] |= backgroundContact[i]
            }
        }
    }

    @inline(__always)
    private static func measureRuns(start: UnsafePointer<Int32>, end: UnsafePointer<Int32>, count: Int, width: Int32,
                                    area: UnsafeMutablePointer<Int32>, touches: UnsafeMutablePointer<Int32>) {
        for i in 0..<count {
            let s = start[i]
            let e = end[i]
            area[i] = e &- s
            touches[i] = (s == 0 ? 1 : 0) | (e == width ? 1 : 0)
        }
    }

    @inline(never)
    private func decideIslands(minimumBlob: Int32) {
        let parent = runs.parent
        let kind = self.kind
        let foregroundContact = self.foregroundContact
        let backgroundContact = self.backgroundContact
        let enclosedLimit = minimumBlob / 4
        for i in 0..<count {
            let root = Int(parent[i])
            let area = foregroundContact[root]
            if kind[i] == Self.foreground {
                if area < minimumBlob { kind[i] = Self.background }
            } else if backgroundContact[root] == 0 && area < enclosedLimit {
                kind[i] = Self.foreground
            }
        }
    }

    @inline(never)
    private func paint(into mask: UnsafeMutablePointer<UInt8>) {
        let start = runs.start
        let end = runs.end
        let rowFirst = runs.rowFirst
        let kind = self.kind
        for y in 0..<height {
            let row = mask + y * width
            for i in Int(rowFirst[y])..<Int(rowFirst[y + 1]) {
                let s = Int(start[i])
                (row + s).update(repeating: kind[i] == Self.foreground ? 255 : 0, count: Int(end[i]) &- s)
            }
        }
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
