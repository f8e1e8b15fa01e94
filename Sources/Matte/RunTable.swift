import KernelIO

/// Horizontal runs of one work-grid picture, row by row, with a union-find forest over them: the
/// storage DepthSegments (runs of one surface) and RunLabeller (runs of one class) both build on.
/// One node per run rather than per pixel, so the cost follows the edges in the picture.
///
/// Unions hang the larger root under the smaller, so every parent index is below its child's:
/// one forward sweep over the runs (`parent[i] = parent[parent[i]]`) flattens the forest, and a
/// root is the first run of its component in raster order. Sized at init; nothing allocates
/// afterwards. Not thread-safe.
final class RunTable {
    let width: Int
    let height: Int
    /// More runs than this in one frame means pure noise; the caller then falls back per pixel.
    let capacity: Int
    var count = 0
    /// Run i covers columns start[i] ..< end[i] of its row.
    let start: UnsafeMutablePointer<Int32>
    let end: UnsafeMutablePointer<Int32>
    let parent: UnsafeMutablePointer<Int32>
    /// The first run of each row; rowFirst[height] is the run count.
    let rowFirst: UnsafeMutablePointer<Int32>
    private let memory: AlignedBuffer

    /// Throws ENOMEM when the arrays (about 3 bytes per pixel) cannot be had: the size is the
    /// camera's or a recording's.
    init(width: Int, height: Int) throws(SystemError) {
        self.width = width
        self.height = height
        capacity = max(4 * (width + height), width * height / 4)
        var layout = BufferLayout()
        let startSlot = layout.reserve(Int32.self, count: capacity)
        let endSlot = layout.reserve(Int32.self, count: capacity)
        let parentSlot = layout.reserve(Int32.self, count: capacity)
        let rowFirstSlot = layout.reserve(Int32.self, count: height + 1)
        memory = try AlignedBuffer(layout: layout)
        start = memory.pointer(startSlot)
        end = memory.pointer(endSlot)
        parent = memory.pointer(parentSlot)
        rowFirst = memory.pointer(rowFirstSlot)
    }

    /// Root of run `node`, halving the path on the way.
    @inline(__always)
    func find(_ node: Int) -> Int { Self.find(node, in: parent) }

    @inline(__always)
    func union(_ a: Int, _ b: Int) { Self.union(a, b, in: parent) }

    /// `find` on a caller's local copy of `parent`: the hot loops keep the tables in locals, so
    /// no store through `parent` makes them reload the class's other pointers.
    @inline(__always)
    static func find(_ node: Int, in parent: UnsafeMutablePointer<Int32>) -> Int {
        var x = node
        while Int(parent[x]) != x {
            let grand = parent[Int(parent[x])]
            parent[x] = grand
            x = Int(grand)
        }
        return x
    }

    /// `union` of a component whose root the caller keeps in hand (`root`, a run being joined
    /// to the runs above it one by one) with run `other`'s: returns the joined root. `other` is
    /// looked at as one step from its root before it is searched: mostly it is.
    @inline(__always)
    static func join(root: Int, _ other: Int, in parent: UnsafeMutablePointer<Int32>) -> Int {
        var top = Int(parent[other])
        if top != other && Int(parent[top]) != top {
            top = find(other, in: parent)
        }
        if top < root {
            parent[root] = Int32(truncatingIfNeeded: top)
            return top
        }
        if top > root { parent[top] = Int32(truncatingIfNeeded: root) }
        return root
    }

    /// The lower root becomes the parent, so a run's root is its component's first run.
    @inline(__always)
    static func union(_ a: Int, _ b: Int, in parent: UnsafeMutablePointer<Int32>) {
        let ra = find(a, in: parent)
        let rb = find(b, in: parent)
        if ra < rb {
            parent[rb] = Int32(truncatingIfNeeded: ra)
        } else if rb < ra {
            parent[ra] = Int32(truncatingIfNeeded: rb)
        }
    }
}
