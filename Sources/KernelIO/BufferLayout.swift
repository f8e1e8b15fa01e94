/// Places several typed arrays in one `AlignedBuffer`, each on a 64-byte boundary, so a type with
/// many start-up arrays (the matte's planes and tables) makes one fallible allocation and has one
/// owner that frees them all, instead of a Swift `.allocate` per array, which traps when the
/// memory is not there.
///
/// The counts come from input (a camera's or a recording's geometry), so a sum that would
/// overflow is carried as an impossible size: the allocation then refuses it with ENOMEM, a
/// message, rather than an arithmetic trap.
///
/// With `GuardedPlanes` on when the layout is made, each array instead ends at a page boundary
/// with an inaccessible page after it (its start then aligned only as its element needs), and
/// the buffer is mapped pages rather than the heap.
public struct BufferLayout {
    /// Where one array lies in the buffer laid out by the layout that reserved it.
    public struct Slot<Element> {
        fileprivate let offset: Int
        fileprivate let count: Int
    }

    public private(set) var byteCount = 0
    /// The guarded layout (see `GuardedPlanes`): the page size, 0 when not guarded.
    public let guardPage: Int
    /// Where the guard pages lie, one after each array (guarded layouts only).
    public private(set) var guards: [Int] = []

    public init() {
        guardPage = GuardedPlanes.enabled ? GuardedPlanes.pageSize : 0
    }

    public mutating func reserve<Element>(_: Element.Type, count: Int) -> Slot<Element> {
        precondition(count >= 0)
        let (bytes, productOverflow) = count.multipliedReportingOverflow(by: MemoryLayout<Element>.stride)
        guard !productOverflow else { return impossible() }
        if guardPage > 0 { return reserveGuarded(bytes: bytes, count: count) }
        guard byteCount < Int.max - 63 else { return impossible() }
        let start = (byteCount + 63) & ~63
        let (end, sumOverflow) = start.addingReportingOverflow(bytes)
        guard !sumOverflow else { return impossible() }
        byteCount = end
        return Slot(offset: start, count: count)
    }

    /// The array's pages from the next page boundary, the array against their end (a multiple of
    /// its stride back from a page boundary, so aligned as its element needs), then the guard.
    private mutating func reserveGuarded<Element>(bytes: Int, count: Int) -> Slot<Element> {
        let page = guardPage
        guard byteCount < Int.max / 2, bytes < Int.max / 2 else { return impossible() }
        let first = (byteCount + page - 1) / page * page
        let end = first + (bytes + page - 1) / page * page
        guard end < Int.max / 2 else { return impossible() }
        guards.append(end)
        byteCount = end + page
        return Slot(offset: end - bytes, count: count)
    }

    private mutating func impossible<Element>() -> Slot<Element> {
        byteCount = Int.max
        return Slot(offset: 0, count: 0)
    }
}

extension AlignedBuffer {
    /// The array `slot` names, zeroed (as the whole buffer is) and bound to its element type.
    /// `slot` must come from the layout this buffer was allocated for.
    public func pointer<Element>(_ slot: BufferLayout.Slot<Element>) -> UnsafeMutablePointer<Element> {
        precondition(slot.offset + slot.count * MemoryLayout<Element>.stride <= byteCount)
        return (base + slot.offset).bindMemory(to: Element.self, capacity: slot.count)
    }

    /// One allocation holding every array `layout` reserved; for a guarded layout, mapped pages
    /// with its guard pages made inaccessible.
    public init(layout: BufferLayout) throws(SystemError) {
        try self.init(byteCount: layout.byteCount, guardPage: layout.guardPage, guards: layout.guards)
    }
}
