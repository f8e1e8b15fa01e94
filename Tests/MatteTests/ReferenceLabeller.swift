import KernelIO
@testable import Matte

/// RunLabeller as it was before pass 2 started from pass 1's components, the left contacts were
/// counted as runs are made and the run measures taken in one loop: the labeller must match it
/// byte for byte (DepthKernelIdentityTests). Kept verbatim but for the name; documentation in
/// RunLabeller.
final class ReferenceLabeller {
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
    private let memory: AlignedBuffer

    init(width: Int, height: Int) throws(SystemError) {
        self.width = width
        self.height = height
        runs = try RunTable(width: width, height: height)
        var layout = BufferLayout()
        let kindSlot = layout.reserve(UInt8.self, count: runs.capacity)
        let foregroundSlot = layout.reserve(Int32.self, count: runs.capacity)
        let backgroundSlot = layout.reserve(Int32.self, count: runs.capacity)
        memory = try AlignedBuffer(layout: layout)
        kind = memory.pointer(kindSlot)
        foregroundContact = memory.pointer(foregroundSlot)
        backgroundContact = memory.pointer(backgroundSlot)
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
        var n = 0
        let lastRow = height - 1
        for y in 0..<height {
            let row = classes + y * width
            runs.rowFirst[y] = Int32(n)
            var x = 0
            while x < width {
                let k = row[x]
                let e = Self.runEnd(row: row, from: x, width: width, value: k)
                if n == capacity {
                    runs.count = n
                    return false
                }
                runs.start[n] = Int32(x)
                runs.end[n] = Int32(e)
                kind[n] = k
                runs.parent[n] = Int32(n)
                foregroundContact[n] = 0
                // The frame border is unknown territory: it argues against filling a hole.
                var border: Int32 = 0
                if y == 0 || y == lastRow { border = Int32(e - x) }
                if x == 0 { border += 1 }
                if e == width { border += 1 }
                backgroundContact[n] = k == Self.hole ? border : 0
                n += 1
                x = e
            }
            let first = Int(runs.rowFirst[y])
            if first + 1 < n {
                for i in (first + 1)..<n { contact(i - 1, i, 1) }
            }
            if y > 0 { linkRows(previous: Int(runs.rowFirst[y - 1]), current: first, end: n, binary: false) }
        }
        runs.rowFirst[height] = Int32(n)
        runs.count = n
        return true
    }

    /// Walks two rows' runs in step; runs that overlap (4-connectivity) are joined when of one
    /// class, and otherwise tell a hole what borders it.
    private func linkRows(previous: Int, current: Int, end rowEnd: Int, binary: Bool) {
        var i = previous
        var j = current
        while i < current && j < rowEnd {
            let overlap = min(runs.end[i], runs.end[j]) - max(runs.start[i], runs.start[j])
            if overlap > 0 {
                if kind[i] == kind[j] {
                    union(i, j)
                } else if !binary {
                    contact(i, j, overlap)
                }
            }
            if runs.end[i] < runs.end[j] {
                i += 1
            } else if runs.end[j] < runs.end[i] {
                j += 1
            } else {
                i += 1
                j += 1
            }
        }
    }

    @inline(__always)
    private func contact(_ a: Int, _ b: Int, _ length: Int32) {
        if kind[a] == Self.hole {
            if kind[b] == Self.foreground { foregroundContact[a] += length } else { backgroundContact[a] += length }
        }
        if kind[b] == Self.hole {
            if kind[a] == Self.foreground { foregroundContact[b] += length } else { backgroundContact[b] += length }
        }
    }

    @inline(__always)
    private func union(_ a: Int, _ b: Int) { runs.union(a, b) }

    @inline(never)
    private func flattenSummingContacts() {
        for i in 0..<count {
            let p = Int(runs.parent[i])
            if p != i {
                let root = Int(runs.parent[p])
                runs.parent[i] = Int32(root)
                foregroundContact[root] += foregroundContact[i]
                backgroundContact[root] += backgroundContact[i]
            }
        }
    }

    @inline(never)
    private func decideHoles() {
        // Reuses `kind` for the binary picture: holes that stay holes become background.
        for i in 0..<count where kind[i] == Self.hole {
            let root = Int(runs.parent[i])
            let inside = foregroundContact[root]
            let total = inside + backgroundContact[root]
            let fill = inside > 0 && inside * 100 >= Self.holeFillPercent * total
            kind[i] = fill ? Self.foreground : Self.background
        }
    }

    // MARK: pass 2

    @inline(never)
    private func linkBinary() {
        for i in 0..<count { runs.parent[i] = Int32(i) }
        for y in 0..<height {
            let first = Int(runs.rowFirst[y])
            let last = Int(runs.rowFirst[y + 1])
            if first + 1 < last {
                for i in (first + 1)..<last where kind[i] == kind[i - 1] { union(i - 1, i) }
            }
            if y > 0 { linkRows(previous: Int(runs.rowFirst[y - 1]), current: first, end: last, binary: true) }
        }
        // Area in foregroundContact, "touches the frame border" in backgroundContact.
        let lastRow = Int32(height - 1)
        var y: Int32 = 0
        for i in 0..<count {
            while Int(runs.rowFirst[Int(y) + 1]) <= i { y += 1 }
            foregroundContact[i] = runs.end[i] - runs.start[i]
            let touches = y == 0 || y == lastRow || runs.start[i] == 0 || Int(runs.end[i]) == width
            backgroundContact[i] = touches ? 1 : 0
        }
        for i in 0..<count {
            let p = Int(runs.parent[i])
            if p != i {
                let root = Int(runs.parent[p])
                runs.parent[i] = Int32(root)
                foregroundContact[root] += foregroundContact[i]
                backgroundContact[root] |= backgroundContact[i]
            }
        }
    }

    @inline(never)
    private func decideIslands(minimumBlob: Int32) {
        let enclosedLimit = minimumBlob / 4
        for i in 0..<count {
            let root = Int(runs.parent[i])
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
        for y in 0..<height {
            let row = mask + y * width
            for i in Int(runs.rowFirst[y])..<Int(runs.rowFirst[y + 1]) {
                let s = Int(runs.start[i])
                (row + s).update(repeating: kind[i] == Self.foreground ? 255 : 0, count: Int(runs.end[i]) - s)
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
