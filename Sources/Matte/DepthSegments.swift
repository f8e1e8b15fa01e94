import KernelIO

/// People by depth continuity: the work grid's readings are split into connected 3D regions
/// (neighbours joined when their depths differ by less than the sensor's step at that distance),
/// and whole regions are kept or dropped. So a person whose stepping leg lies beyond the band
/// is kept whole, and a wall or the floor is cut even inside the band, because neither is joined
/// to a person: the floor's points (FloorTracker) are taken out before joining, which also
/// separates the feet from the floor they stand on.
///
/// A region is kept when it is person-like: at least `minimumPixels`, its mean depth inside the
/// band, no deeper than `maximumDepthSpanMM` front to back (a side wall or a corridor runs
/// metres into the distance), no wider than `maximumWidthMM` (a back wall fills the view), and
/// figure rather than ground: where its edge meets another region, that region does not lie in
/// front of it almost everywhere (a patch of wall seen between an arm and the body, or beside a
/// person at the frame's edge, has only nearer surfaces around it).
///
/// Regions are built on runs (one union-find node per horizontal stretch of joined pixels), so
/// the cost follows the edges in the picture. All arrays are sized at init; `segment` allocates
/// nothing. Not thread-safe.
final class DepthSegments {
    static let maximumDepthSpanMM: Float = 1500
    static let maximumWidthMM: Float = 2500
    /// Ground: nearer surfaces on more than this many times as much of the edge as farther ones.
    /// Not 1: a person half hidden by a nearer one, with the sensor's shadow (no reading, so no
    /// contact) down their other side, has few farther contacts left.
    static let groundRatio: Int32 = 4

    let width: Int
    let height: Int
    var capacity: Int { runs.capacity }
    var count: Int { runs.count }

    private let runs: RunTable
    private let pixels: UnsafeMutablePointer<Int32>
    private let depthSum: UnsafeMutablePointer<Float>
    private let minimumX: UnsafeMutablePointer<Int32>
    private let maximumX: UnsafeMutablePointer<Int32>
    private let minimumZ: UnsafeMutablePointer<UInt16>
    private let maximumZ: UnsafeMutablePointer<UInt16>
    private let keep: UnsafeMutablePointer<UInt8>
    /// Edge pixels where the region across is nearer / farther, per run and summed into the
    /// roots. Not private: DepthKernelIdentityTests compares them, as the classes alone rarely
    /// show a contact counted the wrong way.
    let nearerContacts: UnsafeMutablePointer<Int32>
    let fartherContacts: UnsafeMutablePointer<Int32>
    /// The join tolerance in raw units is base + d^2 * growth (see `prepareTolerance`).
    private var toleranceBase: Float = 30
    private var toleranceGrowth: Float = 1 / 60_000
    /// floor(toleranceBase): a difference up to this is joined whatever the depth (the growth
    /// term only adds), decided in integers without the float formula.
    private var sureJoin = 30
    /// The unit `bound` was last fitted for (0: none yet).
    private var boundUnit: Float = 0
    /// A lower bound of a reading's join tolerance in 16-bit integers (see `JoinBound.fit`).
    private var bound = JoinBound(sure: 30, low: 0, high: 0)
    /// Per column of the current row: nonzero where a run may not continue from the pixel on
    /// its left: no reading or floor there (see `markSteps` on the left one), or a step beyond
    /// the bound, decided with the exact tolerance by the scan that meets it.
    private let breaks: UnsafeMutablePointer<UInt8>
    /// Per column of the current row against the row above: 0 joined, else (nonzero) a step
    /// beyond the bound, which the vertical join tests exactly (meaningful only where both rows
    /// have runs).
    private let vertical: UnsafeMutablePointer<UInt8>
    /// Where `segment` copies the rows to when its caller wants no copy.
    private let copySink: UnsafeMutablePointer<UInt16>
    /// Per pixel, set by the caller: 1 on the floor, 2 on the floor's foot zone (just above
    /// it: a shoe, or floor noise), 0 elsewhere.
    let floor: UnsafeMutablePointer<UInt8>
    private let memory: AlignedBuffer

    init(width: Int, height: Int) throws(SystemError) {
        self.width = width
        self.height = height
        runs = try RunTable(width: width, height: height)
        let capacity = runs.capacity
        var layout = BufferLayout()
        let pixelsSlot = layout.reserve(Int32.self, count: capacity)
        let depthSumSlot = layout.reserve(Float.self, count: capacity)
        let minimumXSlot = layout.reserve(Int32.self, count: capacity)
        let maximumXSlot = layout.reserve(Int32.self, count: capacity)
        let minimumZSlot = layout.reserve(UInt16.self, count: capacity)
        let maximumZSlot = layout.reserve(UInt16.self, count: capacity)
        let keepSlot = layout.reserve(UInt8.self, count: capacity)
        let nearerSlot = layout.reserve(Int32.self, count: capacity)
        let fartherSlot = layout.reserve(Int32.self, count: capacity)
        let breaksSlot = layout.reserve(UInt8.self, count: width + 40)
        let verticalSlot = layout.reserve(UInt8.self, count: width + 160)
        let copySinkSlot = layout.reserve(UInt16.self, count: width + 8)
        let floorSlot = layout.reserve(UInt8.self, count: width * height)
        memory = try AlignedBuffer(layout: layout)
        pixels = memory.pointer(pixelsSlot)
        depthSum = memory.pointer(depthSumSlot)
        minimumX = memory.pointer(minimumXSlot)
        maximumX = memory.pointer(maximumXSlot)
        minimumZ = memory.pointer(minimumZSlot)
        maximumZ = memory.pointer(maximumZSlot)
        keep = memory.pointer(keepSlot)
        nearerContacts = memory.pointer(nearerSlot)
        fartherContacts = memory.pointer(fartherSlot)
        breaks = memory.pointer(breaksSlot)
        breaks.update(repeating: 1, count: width + 40)
        vertical = memory.pointer(verticalSlot)
        vertical.update(repeating: 0, count: width + 160)
        copySink = memory.pointer(copySinkSlot)
        floor = memory.pointer(floorSlot)
    }

    /// The step two neighbouring readings of one surface may differ by: a few of the sensor's
    /// quantisation steps, which grow with the square of distance (disparity sensors), plus a
    /// floor for noise. 30 mm + z^2 / 60 m: 45 mm at 1 m, 97 mm at 2 m, 180 mm at 3 m. In raw
    /// units d = z / unit: 30 / unit + d^2 * unit / 60 m.
    private func prepareTolerance(unit: Float) {
        toleranceBase = 30 / unit
        toleranceGrowth = unit / 60_000
        sureJoin = Int(min(65535, toleranceBase))
        // Fitted once per unit: the proof reads all 65536 depths (about a frame's worth of work).
        if unit != boundUnit {
            bound = JoinBound.fit(base: toleranceBase, growth: toleranceGrowth, sure: sureJoin)
            boundUnit = unit
        }
    }

    @inline(__always)
    private func joined(_ a: UInt16, _ b: UInt16) -> Bool {
        // Exact shortcut: base + far^2 * growth >= base (the product is >= 0 and float addition
        // is monotonic), and an integer d <= floor(base) is <= base.
        let difference = Int(a) &- Int(b)
        if (difference < 0 ? 0 &- difference : difference) <= sureJoin { return true }
        let fa = Float(a)
        let fb = Float(b)
        let far = max(fa, fb)
        return abs(fa - fb) <= toleranceBase + far * far * toleranceGrowth
    }

    /// Segments `depth` (raw units; 0 = no reading) and writes the class map RunLabeller reads:
    /// foreground for kept regions, hole for no reading, background for the rest (floor
    /// included). `near`/`far` is the band in raw units, `pixelWidthMM` the width of one grid
    /// pixel at 1 m. Returns false when the frame has more runs than `capacity` (pure noise);
    /// `classes` and `copy` are then partly written.
    ///
    /// With `copy`, `depth` is also copied there packed (rows `width` apart): the pass that reads
    /// every reading anyway does it, so the temporal stage keeps this frame's depth for the next
    /// without reading the frame a second time. `feet: false` says `floor` is all 0 (no floor in
    /// view), so no foot-zone reading can join anyone and their search is skipped.
    func segment(depth: UnsafePointer<UInt16>, stride: Int, unit: Float, near: UInt16, far: UInt16,
                 minimumPixels: Int, pixelWidthMM: Float, into classes: UnsafeMutablePointer<UInt8>,
                 copy: UnsafeMutablePointer<UInt16>? = nil, feet: Bool = true) -> Bool {
        prepareTolerance(unit: unit)
        guard extractRuns(depth: depth, stride: stride, classes: classes, copy: copy, floorClear: !feet) else { return false }
        flatten()
        decide(unit: unit, near: near, far: far, minimumPixels: minimumPixels, pixelWidthMM: pixelWidthMM)
        paint(depth: depth, stride: stride, into: classes, feet: feet)
        return true
    }

    @inline(never)
    private func extractRuns(depth: UnsafePointer<UInt16>, stride: Int, classes: UnsafeMutablePointer<UInt8>,
                             copy: UnsafeMutablePointer<UInt16>?, floorClear: Bool) -> Bool {
        // The tables as locals: read through `self` and `runs`, every store through one of them
        // might have changed the class's fields, so each access reloaded the pointer from the
        // object (two loads per table access in the join loops), and the Int32 conversions
        // checked for overflow (columns and run indices are below width * height, far inside).
        let start = runs.start
        let end = runs.end
        let parent = runs.parent
        let rowFirst = runs.rowFirst
        let nearer = nearerContacts
        let farther = fartherContacts
        let pixels = self.pixels
        let depthSum = self.depthSum
        let minimumX = self.minimumX
        let maximumX = self.maximumX
        let minimumZ = self.minimumZ
        let maximumZ = self.maximumZ
        let breaks = self.breaks
        let vertical = self.vertical
        let floor = self.floor
        let width = self.width
        let capacity = self.capacity
        let copySink = self.copySink
        @inline(__always) func index32(_ i: Int) -> Int32 { Int32(truncatingIfNeeded: i) }
        @inline(__always) func contact(_ a: Int, _ depthA: UInt16, _ b: Int, _ depthB: UInt16) {
            if depthA < depthB {
                farther[a] &+= 1
                nearer[b] &+= 1
            } else {
                nearer[a] &+= 1
                farther[b] &+= 1
            }
        }
        let bound = self.bound
        let sure = sureJoin
        let base = toleranceBase
        let growth = toleranceGrowth
        /// `joined`, on locals: stores through the tables would make it reload the fields.
        @inline(__always) func joinedExactly(_ a: UInt16, _ b: UInt16) -> Bool {
            let difference = Int(a) &- Int(b)
            if (difference < 0 ? 0 &- difference : difference) <= sure { return true }
            let fa = Float(a)
            let fb = Float(b)
            let far = max(fa, fb)
            return abs(fa - fb) <= base + far * far * growth
        }
        var n = 0
        for y in 0..<height {
            let row = depth + y * stride
            let floorRow = floor + y * width
            let rowClasses = classes + y * width
            rowFirst[y] = index32(n)
            // Where runs may break, in one branch-free pass in lanes: at a missing reading, at
            // the floor, and at a depth step beyond the tolerance's integer bound (the float
            // formula for every reading was over a third of the segmenter). The scan below then
            // moves 32 columns at a time through unbroken stretches. In the same pass, every
            // column's test against the row above, for the vertical join below: there, decided
            // per column with the float formula, it was a third of the segmenter (its branch
            // mispredicted on noisy far surfaces), and scalar.
            // The first row has none above: it is tested against itself, and its codes (all
            // joined) are never read, since the vertical join starts at row 1. The same pass
            // writes the row's classes as `paint` starts them (hole or background) and the copy.
            let above = y > 0 ? row - stride : row
            let rowCopy = copy.map { $0 + y * width } ?? copySink
            if floorClear {
                Self.markSteps(NoFloor.self, row: row, above: above, floor: floorRow, width: width, bound: bound,
                               breaks: breaks, vertical: vertical, classes: rowClasses, copy: rowCopy)
            } else {
                Self.markSteps(FloorRead.self, row: row, above: above, floor: floorRow, width: width, bound: bound,
                               breaks: breaks, vertical: vertical, classes: rowClasses, copy: rowCopy)
            }
            breaks[width] = 1
            var x = 0
            let classWords = UnsafeRawPointer(rowClasses)
            let floorWords = UnsafeRawPointer(floorRow)
            let breakWords = UnsafeRawPointer(breaks)
            while true {
                // To the next column with a reading off the floor, eight at a time. This row's
                // classes (1 at no reading, else 0, as markSteps left them) and floor marks (0,
                // 1 or 2) are below 4 per byte, so bit 0 of (w | w >> 1) is set exactly at the
                // closed columns of w, their OR.
                var open: UInt64 = 0
                while x &+ 8 <= width {
                    var w = UInt64(littleEndian: classWords.loadUnaligned(fromByteOffset: x, as: UInt64.self))
                    if !floorClear {
                        w |= UInt64(littleEndian: floorWords.loadUnaligned(fromByteOffset: x, as: UInt64.self))
                    }
                    open = ~(w | w &>> 1) & 0x0101_0101_0101_0101
                    if open != 0 { break }
                    x &+= 8
                }
                if open != 0 {
                    x &+= open.trailingZeroBitCount &>> 3
                } else {
                    while x < width && (row[x] == 0 || floorRow[x] != 0) { x &+= 1 }
                    if x >= width { break }
                }
                guard n < capacity else { return false }
                let first = x
                // Cut from the run just left of it by a depth step: the two meet here. (That run
                // ending at this column says its last column, x - 1, has a reading off the floor.)
                // Counted without a branch (0 where they do not meet), as whether they meet
                // and which is the nearer are both unpredictable. The first run of the frame
                // reads and adds 0 to itself.
                let left = max(n &- 1, 0)
                let meets: Int32 = n > Int(rowFirst[y]) && end[left] == index32(x) ? 1 : 0
                let leftNearer: Int32 = row[max(x &- 1, 0)] < row[x] ? meets : 0
                nearer[n] = leftNearer
                farther[n] = meets &- leftNearer
                farther[left] &+= leftNearer
                nearer[left] &+= meets &- leftNearer
                // To the next break (`breaks[width]` is 1, so within its slack), 32 columns at a
                // time in four words: runs are long, a hundred columns on average. A step beyond
                // the bound ends the run only when it is beyond the tolerance: rare, so the float
                // formula is worked out only there.
                x &+= 1
                while true {
                    @inline(__always) func word(_ at: Int) -> UInt64 {
                        UInt64(littleEndian: breakWords.loadUnaligned(fromByteOffset: at, as: UInt64.self))
                    }
                    // The first mark of the 32 columns found without a branch (a zero word's
                    // count is 64): a loop over the words after the 32-column one left a second
                    // loop exit to mispredict at nearly every run.
                    while true {
                        let a = word(x)
                        let b = word(x &+ 8)
                        let c = word(x &+ 16)
                        let d = word(x &+ 24)
                        if a | b | c | d != 0 {
                            // A count is 64 exactly when its word is zero (its bit 6 alone), 128
                            // when both of a pair are (bit 7): the next count is added by that bit.
                            let ta = a.trailingZeroBitCount
                            let tc = c.trailingZeroBitCount
                            let early = ta &+ b.trailingZeroBitCount &* (ta &>> 6)
                            let late = tc &+ d.trailingZeroBitCount &* (tc &>> 6)
                            x &+= (early &+ late &* (early &>> 7)) &>> 3
                            break
                        }
                        x &+= 32
                    }
                    // A mark with a reading off the floor on both sides is a step beyond the bound.
                    if x >= width || row[x] == 0 || (!floorClear && floorRow[x] != 0)
                        || !joinedExactly(row[x - 1], row[x]) { break }
                    x &+= 1
                }
                // A run is one continuous surface: its ends give its depth range and, averaged,
                // its mean closely enough, without touching every pixel again.
                let low = min(row[first], row[x - 1])
                let high = max(row[first], row[x - 1])
                start[n] = index32(first)
                end[n] = index32(x)
                parent[n] = index32(n)
                pixels[n] = index32(x - first)
                depthSum[n] = (Float(row[first]) + Float(row[x - 1])) * 0.5 * Float(x - first)
                minimumX[n] = index32(first)
                maximumX[n] = index32(x - 1)
                minimumZ[n] = low
                maximumZ[n] = high
                n &+= 1
            }
            // Join with the runs of the row above that touch this run at a column where the
            // two readings are one surface.
            if y > 0 {
                var a = Int(rowFirst[y - 1])
                let aEnd = Int(rowFirst[y])
                for r in aEnd..<n {
                    while a < aEnd && end[a] <= start[r] { a &+= 1 }
                    // Only this run's unions change its root: kept in hand, not found again.
                    var root = r
                    var b = a
                    while b < aEnd && start[b] < end[r] {
                        let from = Int(max(start[b], start[r]))
                        let to = Int(min(end[b], end[r]))
                        // Every column until the first joined one (the link), then every 4th for
                        // the contacts (weighted 4): counting them all doubled the segmenter's cost.
                        // `vertical` holds each column's test against the bound: 0 is joined, and
                        // otherwise joined(row[x], above[x]) decides.
                        var x = from
                        while x < to {
                            if vertical[x] == 0 || joinedExactly(row[x], above[x]) {
                                root = RunTable.join(root: root, b, in: parent)
                                x &+= 1
                                break
                            }
                            contact(r, row[x], b, above[x])
                            x &+= 1
                        }
                        x &+= 3
                        let sampled = x
                        let stepped = Self.anyStep(in: vertical, from: sampled,
                                                   samples: max(0, to &- sampled &+ 3) &>> 2)
                        // Only those beyond the tolerance are contacts: counted over the same
                        // samples with the exact test. Rare, as samples on one surface are
                        // within the bound almost always.
                        if stepped {
                            var nearerBelow: Int32 = 0
                            var fartherBelow: Int32 = 0
                            x = sampled
                            while x < to {
                                if vertical[x] != 0 && !joinedExactly(row[x], above[x]) {
                                    if row[x] < above[x] { nearerBelow &+= 1 } else { fartherBelow &+= 1 }
                                }
                                x &+= 4
                            }
                            farther[r] &+= 4 &* nearerBelow
                            nearer[b] &+= 4 &* nearerBelow
                            nearer[r] &+= 4 &* fartherBelow
                            farther[b] &+= 4 &* fartherBelow
                        }
                        b &+= 1
                    }
                }
            }
        }
        runs.rowFirst[height] = Int32(n)
        runs.count = n
        return true
    }

    /// `breaks` (columns 0 ..< width) for one row, and `vertical` (the same columns) against
    /// the row above, both against the reading's integer bound (`JoinBound`): a step within it
    /// is joined for sure (0), one beyond it marked (nonzero) for the exact test; `classes` hole
    /// where there is no reading, else background; `copy` the row. `Floor.clear`: `floor` is all
    /// 0 and is not read (a type, so that each case is compiled on its own without the test).
    ///
    /// A column's break is marked for its own missing reading or floor mark, not its left
    /// neighbour's: a run reaching a column holds the one on its left, which has a reading off
    /// the floor. No mark says which reading is the nearer: its readers compare the depths.
    /// Sixteen columns at a time in explicit lanes (two halves of eight 16-bit lanes, packed to
    /// bytes together), the last sixteen overlapping the group before (each column's bytes
    /// depend on its readings alone, so writing one twice writes the same): as a loop left to
    /// the vectoriser, the 7 columns past the last group of eight of a 640-wide row ran scalar,
    /// and each row paid for checking its seven pointers for overlap.
    @inline(never)
    private static func markSteps<Floor: FloorMarks>(_: Floor.Type, row: UnsafePointer<UInt16>, above: UnsafePointer<UInt16>,
                                  floor: UnsafePointer<UInt8>, width: Int, bound: JoinBound,
                                  breaks: UnsafeMutablePointer<UInt8>, vertical: UnsafeMutablePointer<UInt8>,
                                  classes: UnsafeMutablePointer<UInt8>, copy: UnsafeMutablePointer<UInt16>) {
        let floorClear = Floor.clear
        breaks[0] = 1
        vertical[0] = difference(row[0], above[0]) > bound.of(row[0]) ? 1 : 0
        classes[0] = row[0] == 0 ? RunLabeller.hole : RunLabeller.background
        copy[0] = row[0]
        guard width > 16 else {
            for x in 1..<max(1, width) {
                let a = row[x]
                let limit = bound.of(a)
                let closed = a == 0 || (!floorClear && floor[x] != 0) || difference(a, row[x - 1]) > limit
                breaks[x] = closed ? 1 : 0
                vertical[x] = difference(a, above[x]) > limit ? 1 : 0
                classes[x] = a == 0 ? RunLabeller.hole : RunLabeller.background
                copy[x] = a
            }
            return
        }
        let rowBytes = UnsafeRawPointer(row)
        let aboveBytes = UnsafeRawPointer(above)
        let floorBytes = UnsafeRawPointer(floor)
        let breakBytes = UnsafeMutableRawPointer(breaks)
        let verticalBytes = UnsafeMutableRawPointer(vertical)
        let classBytes = UnsafeMutableRawPointer(classes)
        let copyBytes = UnsafeMutableRawPointer(copy)
        let zero = SIMD8<UInt16>()
        let all = SIMD8<UInt16>(repeating: 0xFFFF)
        /// Masks (all ones where true) of two halves as the 16 bytes of their columns.
        @inline(__always) func bytes(_ low: SIMDMask<SIMD8<Int16>>, _ high: SIMDMask<SIMD8<Int16>>) -> SIMD16<UInt8> {
            SIMD16<UInt8>(lowHalf: SIMD8<UInt8>(truncatingIfNeeded: zero.replacing(with: all, where: low)),
                          highHalf: SIMD8<UInt8>(truncatingIfNeeded: zero.replacing(with: all, where: high)))
        }
        /// Two halves as the 16 bytes of their columns, nonzero exactly where the lane is: a
        /// signed saturating narrowing (one packsswb, sqxtn) never takes a nonzero lane to 0.
        @inline(__always) func nonzeroBytes(_ low: SIMD8<UInt16>, _ high: SIMD8<UInt16>) -> SIMD16<UInt8> {
            @inline(__always) func narrow(_ lanes: SIMD8<UInt16>) -> SIMD8<UInt8> {
                let signed = SIMD8<Int16>(truncatingIfNeeded: lanes)
                return SIMD8<UInt8>(truncatingIfNeeded: pointwiseMax(pointwiseMin(signed, SIMD8<Int16>(repeating: 127)),
                                                                     SIMD8<Int16>(repeating: -128)))
            }
            return SIMD16<UInt8>(lowHalf: narrow(low), highHalf: narrow(high))
        }
        /// Nonzero exactly where `difference` is beyond `limit`: the saturating subtraction
        /// (psubusw, uqsub) that unsigned lanes have, where `.>` on them has no SSE2 instruction
        /// (each side was flipped by its sign bit for a signed compare).
        @inline(__always) func beyond(_ difference: SIMD8<UInt16>, _ limit: SIMD8<UInt16>) -> SIMD8<UInt16> {
            difference &- pointwiseMin(difference, limit)
        }
        @inline(__always) func group(_ x: Int) {
            let a0 = rowBytes.loadUnaligned(fromByteOffset: 2 &* x, as: SIMD8<UInt16>.self)
            let a1 = rowBytes.loadUnaligned(fromByteOffset: 2 &* x &+ 16, as: SIMD8<UInt16>.self)
            let b0 = rowBytes.loadUnaligned(fromByteOffset: 2 &* x &- 2, as: SIMD8<UInt16>.self)
            let b1 = rowBytes.loadUnaligned(fromByteOffset: 2 &* x &+ 14, as: SIMD8<UInt16>.self)
            let u0 = aboveBytes.loadUnaligned(fromByteOffset: 2 &* x, as: SIMD8<UInt16>.self)
            let u1 = aboveBytes.loadUnaligned(fromByteOffset: 2 &* x &+ 16, as: SIMD8<UInt16>.self)
            copyBytes.storeBytes(of: a0, toByteOffset: 2 &* x, as: SIMD8<UInt16>.self)
            copyBytes.storeBytes(of: a1, toByteOffset: 2 &* x &+ 16, as: SIMD8<UInt16>.self)
            // The bound of this reading alone serves both of its pairs: it is at most the
            // tolerance of the nearer of each pair, so at most that of the farther.
            let limit0 = bound.of(a0)
            let limit1 = bound.of(a1)
            let hole = bytes(a0 .== zero, a1 .== zero)
            let across0 = pointwiseMax(a0, b0) &- pointwiseMin(a0, b0)
            let across1 = pointwiseMax(a1, b1) &- pointwiseMin(a1, b1)
            var cut = hole | nonzeroBytes(beyond(across0, limit0), beyond(across1, limit1))
            if !floorClear {
                cut |= floorBytes.loadUnaligned(fromByteOffset: x, as: SIMD16<UInt8>.self)
            }
            breakBytes.storeBytes(of: cut, toByteOffset: x, as: SIMD16<UInt8>.self)
            let down0 = pointwiseMax(a0, u0) &- pointwiseMin(a0, u0)
            let down1 = pointwiseMax(a1, u1) &- pointwiseMin(a1, u1)
            verticalBytes.storeBytes(of: nonzeroBytes(beyond(down0, limit0), beyond(down1, limit1)), toByteOffset: x,
                                     as: SIMD16<UInt8>.self)
            let classes = (hole & RunLabeller.hole) | (~hole & RunLabeller.background)
            classBytes.storeBytes(of: classes, toByteOffset: x, as: SIMD16<UInt8>.self)
        }
        // Two groups a step, the second held at the last (written twice then, the same), so
        // that the loop's own instructions are paid once per 32 columns. Both calls in the
        // loop: a call for the last group after it was left out of line.
        let last = width &- 16
        var x = 1
        while true {
            group(x)
            group(min(x &+ 16, last))
            if x &+ 16 >= last { break }
            x = min(x &+ 32, last)
        }
    }

    /// Whether `markSteps` reads the floor marks.
    private protocol FloorMarks { static var clear: Bool { get } }
    private enum NoFloor: FloorMarks { static var clear: Bool { true } }
    private enum FloorRead: FloorMarks { static var clear: Bool { false } }

    /// Whether any of `samples` columns of `vertical`, every 4th from `from`, is a step beyond
    /// the bound. Sixteen columns (four samples) a chunk, each masked to the samples before the
    /// end by comparing its samples' order with the count, without a branch: the first eight
    /// chunks (128 columns, most overlaps) always, straight on, and a loop only beyond them. A
    /// loop over all of them left its exit to mispredict at nearly every overlap, and before it a
    /// vectorised word loop with a scalar tail had five. `vertical` has slack for the chunks read
    /// past the end (`from` is at most the row's width + 3; see `init`).
    @inline(__always)
    private static func anyStep(in vertical: UnsafeMutablePointer<UInt8>, from: Int, samples: Int) -> Bool {
        // Each byte's sample's order in its chunk (bytes 4i ..< 4i + 4 go with sample i, the
        // sample byte first), and the samples' bytes.
        let order = SIMD16<Int8>(0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3)
        let sampleBytes = SIMD16<Int8>(-1, 0, 0, 0, -1, 0, 0, 0, -1, 0, 0, 0, -1, 0, 0, 0)
        let lanes = UnsafeRawPointer(vertical)
        var steps = SIMD16<Int8>()
        @inline(__always) func chunk(_ at: Int, firstSample: Int8, count: SIMD16<Int8>) {
            let bytes = lanes.loadUnaligned(fromByteOffset: at, as: SIMD16<Int8>.self)
            steps |= bytes.replacing(with: 0, where: order &+ SIMD16<Int8>(repeating: firstSample) .>= count)
        }
        let straight = SIMD16<Int8>(repeating: Int8(truncatingIfNeeded: min(samples, 32)))
        chunk(from, firstSample: 0, count: straight)
        chunk(from &+ 16, firstSample: 4, count: straight)
        chunk(from &+ 32, firstSample: 8, count: straight)
        chunk(from &+ 48, firstSample: 12, count: straight)
        chunk(from &+ 64, firstSample: 16, count: straight)
        chunk(from &+ 80, firstSample: 20, count: straight)
        chunk(from &+ 96, firstSample: 24, count: straight)
        chunk(from &+ 112, firstSample: 28, count: straight)
        var at = from &+ 128
        var left = samples &- 32
        while left > 0 {
            chunk(at, firstSample: 0, count: SIMD16<Int8>(repeating: Int8(truncatingIfNeeded: min(left, 4))))
            at &+= 16
            left &-= 4
        }
        let words = unsafeBitCast(steps & sampleBytes, to: SIMD2<UInt64>.self)
        return words[0] | words[1] != 0
    }

    @inline(__always)
    private static func difference(_ a: UInt16, _ b: UInt16) -> UInt16 { a > b ? a &- b : b &- a }

    /// Sums every run's figures into its root (roots have the smallest index, so one pass).
    @inline(never)
    private func flatten() {
        // The tables as locals, as in `extractRuns`.
        let parent = runs.parent
        let pixels = self.pixels
        let depthSum = self.depthSum
        let minimumX = self.minimumX
        let maximumX = self.maximumX
        let minimumZ = self.minimumZ
        let maximumZ = self.maximumZ
        let nearer = nearerContacts
        let farther = fartherContacts
        for i in 0..<count {
            // Every parent is below its child and was flattened before it, so its parent is
            // the root: no search.
            let root = Int(parent[Int(parent[i])])
            parent[i] = Int32(truncatingIfNeeded: root)
            guard root != i else { continue }
            pixels[root] &+= pixels[i]
            depthSum[root] += depthSum[i]
            minimumX[root] = min(minimumX[root], minimumX[i])
            maximumX[root] = max(maximumX[root], maximumX[i])
            minimumZ[root] = min(minimumZ[root], minimumZ[i])
            maximumZ[root] = max(maximumZ[root], maximumZ[i])
            nearer[root] &+= nearer[i]
            farther[root] &+= farther[i]
        }
    }

    @inline(never)
    private func decide(unit: Float, near: UInt16, far: UInt16, minimumPixels: Int, pixelWidthMM: Float) {
        let span = Self.maximumDepthSpanMM / unit
        for i in 0..<count {
            keep[i] = 0
            guard runs.parent[i] == Int32(i), Int(pixels[i]) >= minimumPixels else { continue }
            let mean = depthSum[i] / Float(pixels[i])
            guard mean >= Float(near) && mean <= Float(far) else { continue }
            guard Float(maximumZ[i]) - Float(minimumZ[i]) <= span else { continue }
            let widthMM = Float(maximumX[i] - minimumX[i] + 1) * pixelWidthMM * mean * unit / 1000
            guard widthMM <= Self.maximumWidthMM else { continue }
            guard nearerContacts[i] <= Self.groundRatio * fartherContacts[i] else { continue }
            keep[i] = 1
        }
    }

    /// Over the holes and background `extractRuns` wrote: the kept runs, then the feet.
    @inline(never)
    private func paint(depth: UnsafePointer<UInt16>, stride: Int, into classes: UnsafeMutablePointer<UInt8>, feet: Bool) {
        for y in 0..<height {
            let out = classes + y * width
            for r in Int(runs.rowFirst[y])..<Int(runs.rowFirst[y + 1]) where keep[Int(runs.parent[r])] != 0 {
                (out + Int(runs.start[r])).update(repeating: RunLabeller.foreground, count: Int(runs.end[r] - runs.start[r]))
            }
            if feet && y > 0 { growFeet(row: y, depth: depth, stride: stride, into: classes) }
        }
    }

    /// The last finished `segment`'s runs, for RunLabeller to pass over whole: every column of
    /// a run has its run's class (foreground where its region is kept, else background), as
    /// `paint` wrote it. The columns between runs (no reading, or the floor with the feet grown
    /// on it) are read from the map.
    var paintedRuns: PaintedRuns {
        PaintedRuns(start: runs.start, end: runs.end, root: runs.parent, keep: keep, rowFirst: runs.rowFirst)
    }

    struct PaintedRuns: ClassRunEnds {
        let start: UnsafePointer<Int32>
        let end: UnsafePointer<Int32>
        /// Each run's region (`flatten` left every parent a root).
        let root: UnsafePointer<Int32>
        let keep: UnsafePointer<UInt8>
        let rowFirst: UnsafePointer<Int32>
        /// The row's first run not ending at or before the columns done, and the row's end.
        private var next = 0
        private var last = 0

        init(start: UnsafePointer<Int32>, end: UnsafePointer<Int32>, root: UnsafePointer<Int32>,
             keep: UnsafePointer<UInt8>, rowFirst: UnsafePointer<Int32>) {
            self.start = start
            self.end = end
            self.root = root
            self.keep = keep
            self.rowFirst = rowFirst
        }

        @inline(__always)
        mutating func startRow(_ y: Int) {
            next = Int(rowFirst[y])
            last = Int(rowFirst[y &+ 1])
        }

        @inline(__always)
        mutating func end(row: UnsafePointer<UInt8>, from: Int, width: Int, value: UInt8) -> Int {
            // `next` is the first run ending after `from`: the run the last class run ended at
            // the start of, or one after the columns it read.
            var r = next
            var x = from
            let pattern = UInt64(value) &* 0x0101_0101_0101_0101
            while true {
                if r < last && Int(start[r]) <= x {
                    // A run of another class ends the class run at its first column (from
                    // inside a run, the class is `value`).
                    let runClass = keep[Int(root[r])] != 0 ? RunLabeller.foreground : RunLabeller.background
                    if runClass != value { break }
                    x = Int(end[r])
                    r &+= 1
                    if x >= width { break }
                    continue
                }
                // Between runs, up to the next one: read, a word at once where the row has one
                // (most of these stretches are short).
                let limit = r < last ? Int(start[r]) : width
                var e: Int
                if x &+ 8 <= width {
                    let w = UInt64(littleEndian: UnsafeRawPointer(row).loadUnaligned(fromByteOffset: x, as: UInt64.self))
                        ^ pattern
                    e = w != 0 ? x &+ w.trailingZeroBitCount &>> 3 : x &+ 8
                    if w == 0 && e < limit { e = RunLabeller.classRunEnd(row: row, from: e &- 1, width: limit, value: value) }
                } else {
                    e = RunLabeller.classRunEnd(row: row, from: x &- 1, width: limit, value: value)
                }
                if e < limit || limit == width {
                    x = min(e, limit)
                    break
                }
                x = limit
            }
            next = r
            return x
        }
    }

    /// Feet: the floor's points were taken out before joining, and with them the soles of the
    /// shoes standing on it. A foot-zone reading joins the person when it touches them from
    /// above or from the side and its depth is one surface with theirs; floor points themselves
    /// (mark 1) never do, so the floor in front of the feet stays out.
    @inline(__always)
    private func growFeet(row y: Int, depth: UnsafePointer<UInt16>, stride: Int, into classes: UnsafeMutablePointer<UInt8>) {
        let marks = floor + y * width
        let row = depth + y * stride
        let above = depth + (y - 1) * stride
        let out = classes + y * width
        let outAbove = classes + (y - 1) * width
        var any = false
        // A foot-zone mark (2) under a foreground pixel (2) is rare. Marks and classes are 0, 1
        // or 2, so bit 1 is set exactly where a byte is 2, and the AND of the two rows' words has
        // it set exactly at the candidates: 32 columns at a time are passed over while there is
        // none, and only the candidates are tested. (Skipping only while no mark was 2 left
        // most of the paint in that scan: the floor's foot zone is wide.)
        let marksWords = UnsafeRawPointer(marks)
        let aboveWords = UnsafeRawPointer(outAbove)
        @inline(__always) func candidates(_ x: Int) -> UInt64 {
            marksWords.loadUnaligned(fromByteOffset: x, as: UInt64.self)
                & aboveWords.loadUnaligned(fromByteOffset: x, as: UInt64.self) & 0x0202_0202_0202_0202
        }
        var x = 0
        while x + 32 <= width && candidates(x) | candidates(x + 8) | candidates(x + 16) | candidates(x + 24) == 0 {
            x += 32
        }
        while x < width {
            if x + 8 <= width {
                var bits = UInt64(littleEndian: candidates(x))
                while bits != 0 {
                    let column = x + bits.trailingZeroBitCount >> 3
                    if joined(row[column], above[column]) {
                        out[column] = RunLabeller.foreground
                        any = true
                    }
                    bits &= bits &- 1
                }
                x += 8
                while x + 32 <= width && candidates(x) | candidates(x + 8) | candidates(x + 16) | candidates(x + 24) == 0 {
                    x += 32
                }
                continue
            }
            if marks[x] == 2 && outAbove[x] == RunLabeller.foreground && joined(row[x], above[x]) {
                out[x] = RunLabeller.foreground
                any = true
            }
            x += 1
        }
        guard any else { return }
        if width > 1 {
            for x in 1..<width where marks[x] == 2 && out[x] != RunLabeller.foreground
                && out[x - 1] == RunLabeller.foreground && joined(row[x], row[x - 1]) {
                out[x] = RunLabeller.foreground
            }
            x = width - 2
            while x >= 0 {
                if marks[x] == 2 && out[x] != RunLabeller.foreground && out[x + 1] == RunLabeller.foreground
                    && joined(row[x], row[x + 1]) {
                    out[x] = RunLabeller.foreground
                }
                x -= 1
            }
        }
    }
}

/// A lower bound of DepthSegments' join tolerance floor(base + d^2 * growth) of a reading d, in
/// 16-bit integers so that a row's bounds take a few vector instructions where the float
/// formula took forty per eight readings: with h = (d * d) >> 16 (so h * 65536 <= d^2),
/// sure + (h * low) >> 16 + (h * high) >> 16, wrapping (a wrapped sum is only smaller). Two
/// multipliers of at most 65535 / 65536 each reach growth * 65536 up to 2 (unit 1: 1.09).
/// A difference up to the bound is joined for sure; one beyond it is tested exactly, and on one
/// surface that is rare, as the bound is within a few units of the tolerance (unit 1: 179
/// against 180 at 3 m).
///
/// `fit` proves the bound against the float formula itself for every reading 1...65535 (0 is no
/// reading, never tested) and loosens it until it holds, so the matte's bytes do not depend on
/// the integer arithmetic being close: only its speed does.
struct JoinBound: Equatable {
    var sure: UInt16
    var low: UInt16
    var high: UInt16

    @inline(__always)
    private static func multiplyHigh(_ a: UInt16, _ b: UInt16) -> UInt16 {
        UInt16(truncatingIfNeeded: (UInt32(a) &* UInt32(b)) &>> 16)
    }

    /// Written as widen, multiply, shift, narrow, which x86 and arm64 compile to one
    /// high-half multiply per eight lanes (pmulhuw, umull2 + shrn).
    @inline(__always)
    private static func multiplyHigh(_ a: SIMD8<UInt16>, _ b: SIMD8<UInt16>) -> SIMD8<UInt16> {
        SIMD8<UInt16>(truncatingIfNeeded: (SIMD8<UInt32>(truncatingIfNeeded: a) &* SIMD8<UInt32>(truncatingIfNeeded: b)) &>> 16)
    }

    @inline(__always)
    func of(_ d: UInt16) -> UInt16 {
        let h = Self.multiplyHigh(d, d)
        return sure &+ Self.multiplyHigh(h, low) &+ Self.multiplyHigh(h, high)
    }

    /// `of` in lanes, the same bits.
    @inline(__always)
    func of(_ d: SIMD8<UInt16>) -> SIMD8<UInt16> {
        let h = Self.multiplyHigh(d, d)
        return SIMD8<UInt16>(repeating: sure) &+ Self.multiplyHigh(h, SIMD8<UInt16>(repeating: low))
            &+ Self.multiplyHigh(h, SIMD8<UInt16>(repeating: high))
    }

    /// True when every reading's bound is at most its tolerance: then a difference up to the
    /// bound (an integer, exact in a float) passes DepthSegments' `joined` test, whose
    /// tolerance only grows with the farther reading (float multiply and add are monotonic).
    func holds(base: Float, growth: Float) -> Bool {
        for d in 1...65535 {
            let f = Float(d)
            if !(Float(of(UInt16(d))) <= base + f * f * growth) { return false }
        }
        return true
    }

    /// The tightest bound of this form for the formula, loosened until `holds`. `sure` is
    /// floor(base), which every reading's tolerance reaches.
    static func fit(base: Float, growth: Float, sure: Int) -> JoinBound {
        // d^2 * growth >= h * scale; each multiplier takes up to 65535 / 65536 of it.
        let scale = growth * 65536
        @inline(__always) func multiplier(_ share: Float) -> UInt16 { UInt16(max(0, min(65535, share * 65536))) }
        var bound = JoinBound(sure: UInt16(truncatingIfNeeded: max(0, min(65535, sure))), low: 0, high: 0)
        bound.low = multiplier(scale)
        bound.high = multiplier(scale - Float(bound.low) / 65536)
        // Float rounding can put the formula a hair under the integer sum at a few readings.
        for _ in 0..<32 {
            if bound.holds(base: base, growth: growth) { return bound }
            if bound.high > 0 {
                bound.high -= bound.high / 64 + 1
            } else if bound.low > 0 {
                bound.low -= bound.low / 64 + 1
            } else {
                break
            }
        }
        bound.low = 0
        bound.high = 0
        // floor(base) holds for every reading unless the formula is not a number.
        if !bound.holds(base: base, growth: growth) { bound.sure = 0 }
        return bound
    }
}
