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
    /// Per column of the current row: 1 where a run cannot continue from the pixel on its left.
    private let breaks: UnsafeMutablePointer<UInt8>
    /// Per column of the current row against the row above: 0 joined, else 1 when this row's
    /// reading is the nearer, 2 when the farther (meaningful only where both rows have runs).
    private let vertical: UnsafeMutablePointer<UInt8>
    /// Where `segment` copies the rows to when its caller wants no copy.
    private let copySink: UnsafeMutablePointer<UInt16>
    /// Per column, the join tolerance of this row's and the row above's reading (`tolerances`).
    private var tolerance: UnsafeMutablePointer<UInt16>
    private var toleranceAbove: UnsafeMutablePointer<UInt16>
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
        let breaksSlot = layout.reserve(UInt8.self, count: width + 8)
        let verticalSlot = layout.reserve(UInt8.self, count: width + 8)
        let toleranceSlot = layout.reserve(UInt16.self, count: width + 8)
        let toleranceAboveSlot = layout.reserve(UInt16.self, count: width + 8)
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
        breaks.update(repeating: 1, count: width + 8)
        vertical = memory.pointer(verticalSlot)
        vertical.update(repeating: 0, count: width + 8)
        tolerance = memory.pointer(toleranceSlot)
        toleranceAbove = memory.pointer(toleranceAboveSlot)
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
        guard extractRuns(depth: depth, stride: stride, classes: classes, copy: copy) else { return false }
        flatten()
        decide(unit: unit, near: near, far: far, minimumPixels: minimumPixels, pixelWidthMM: pixelWidthMM)
        paint(depth: depth, stride: stride, into: classes, feet: feet)
        return true
    }

    @inline(never)
    private func extractRuns(depth: UnsafePointer<UInt16>, stride: Int, classes: UnsafeMutablePointer<UInt8>,
                             copy: UnsafeMutablePointer<UInt16>?) -> Bool {
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
        var n = 0
        for y in 0..<height {
            let row = depth + y * stride
            let floorRow = floor + y * width
            rowFirst[y] = index32(n)
            // Where runs break, in one branch-free pass the compiler vectorises: at a missing
            // reading, at the floor, after either, and at a depth step beyond the tolerance.
            // The scan below then moves eight columns at a time through unbroken stretches.
            // In the same pass, every column's test against the row above, for the vertical
            // join below: there, decided per column with the float formula, it was a third of
            // the segmenter (its branch mispredicted on noisy far surfaces), and scalar.
            // This row's tolerances become the next row's `above`: each is computed once.
            let previous = toleranceAbove
            toleranceAbove = tolerance
            tolerance = previous
            Self.tolerances(row: row, width: width, base: toleranceBase, growth: toleranceGrowth, into: tolerance)
            // The first row has none above: it is tested against itself, and its codes (all
            // joined) are never read, since the vertical join starts at row 1. The same pass
            // writes the row's classes as `paint` starts them (hole or background) and the copy.
            Self.markSteps(row: row, above: y > 0 ? row - stride : row, floor: floorRow, width: width,
                           tolerance: tolerance, toleranceAbove: y > 0 ? toleranceAbove : tolerance,
                           breaks: breaks, vertical: vertical, classes: classes + y * width,
                           copy: copy.map { $0 + y * width } ?? copySink)
            breaks[width] = 1
            var x = 0
            let classWords = UnsafeRawPointer(classes + y * width)
            let floorWords = UnsafeRawPointer(floorRow)
            let breakWords = UnsafeRawPointer(breaks)
            while true {
                // To the next column with a reading off the floor, eight at a time. This row's
                // classes (1 at no reading, else 0, as markSteps left them) and floor marks (0,
                // 1 or 2) are below 4 per byte, so bit 0 of (w | w >> 1) is set exactly at the
                // closed columns of w, their OR.
                var open: UInt64 = 0
                while x &+ 8 <= width {
                    let w = UInt64(littleEndian: classWords.loadUnaligned(fromByteOffset: x, as: UInt64.self))
                        | UInt64(littleEndian: floorWords.loadUnaligned(fromByteOffset: x, as: UInt64.self))
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
                nearer[n] = 0
                farther[n] = 0
                // Cut from the run just left of it by a depth step: the two meet here.
                if x > 0 && row[x - 1] != 0 && floorRow[x - 1] == 0 && n > Int(rowFirst[y]) && end[n - 1] == index32(x) {
                    contact(n - 1, row[x - 1], n, row[x])
                }
                // To the next break the same way (`breaks[width]` is 1, so within its slack).
                x &+= 1
                var cut: UInt64
                while true {
                    cut = UInt64(littleEndian: breakWords.loadUnaligned(fromByteOffset: x, as: UInt64.self))
                    if cut != 0 { break }
                    x &+= 8
                }
                x &+= cut.trailingZeroBitCount &>> 3
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
                let above = depth + (y - 1) * stride
                var a = Int(rowFirst[y - 1])
                let aEnd = Int(rowFirst[y])
                for r in aEnd..<n {
                    while a < aEnd && end[a] <= start[r] { a &+= 1 }
                    var b = a
                    while b < aEnd && start[b] < end[r] {
                        let from = Int(max(start[b], start[r]))
                        let to = Int(min(end[b], end[r]))
                        // Every column until the first joined one (the link), then every 4th for
                        // the contacts (weighted 4): counting them all doubled the segmenter's cost.
                        // `vertical` holds each column's test (joined(row[x], above[x]) is
                        // vertical[x] == 0, and 1 is contact's depthA < depthB).
                        var x = from
                        while x < to {
                            let code = vertical[x]
                            if code == 0 {
                                RunTable.union(r, b, in: parent)
                                x &+= 1
                                break
                            }
                            contact(r, row[x], b, above[x])
                            x &+= 1
                        }
                        x &+= 3
                        var nearerBelow: Int32 = 0
                        var fartherBelow: Int32 = 0
                        // Two samples (bytes 0 and 4) per 8-byte word, counted in the word's
                        // two 32-bit halves: codes are 0, 1 or 2, so bit 0 counts 1s and bit 1
                        // 2s. (Bytes past `to` are loaded but masked off; `vertical` has slack.)
                        var ones: UInt64 = 0
                        var twos: UInt64 = 0
                        let words = UnsafeRawPointer(vertical)
                        while x &+ 4 < to {
                            let word = UInt64(littleEndian: words.loadUnaligned(fromByteOffset: x, as: UInt64.self))
                            ones &+= word & 0x0000_0001_0000_0001
                            twos &+= (word >> 1) & 0x0000_0001_0000_0001
                            x &+= 8
                        }
                        nearerBelow = Int32(truncatingIfNeeded: (ones & 0xFFFF_FFFF) &+ (ones >> 32))
                        fartherBelow = Int32(truncatingIfNeeded: (twos & 0xFFFF_FFFF) &+ (twos >> 32))
                        while x < to {
                            let code = Int32(vertical[x])
                            nearerBelow &+= code & 1
                            fartherBelow &+= code >> 1
                            x &+= 4
                        }
                        if nearerBelow | fartherBelow != 0 {
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

    /// The join tolerance of each reading of a row as a whole number: floor(base + f^2 * growth),
    /// at most 65535. Exact for the pair test: the formula grows with f (float multiply and add
    /// are monotonic), so the tolerance of the farther reading is the larger of the two; and an
    /// integer difference exceeds a tolerance exactly when it exceeds its floor. So the float
    /// work is once per reading, and the pair tests run in 16-bit lanes.
    @inline(__always)
    private static func tolerances(row: UnsafePointer<UInt16>, width: Int, base: Float, growth: Float,
                                   into tolerance: UnsafeMutablePointer<UInt16>) {
        for x in 0..<width {
            let f = Float(row[x])
            let t = min(base + f * f * growth, 65535)
            // floor(t) without a float-to-integer conversion (Swift's traps on range, and a trap
            // is an exit that keeps the loop scalar): adding 2^23 rounds t to an integer in the
            // low mantissa bits, one too many when it rounded up.
            let shifted = t + 8_388_608
            let roundedUp: UInt16 = shifted - 8_388_608 > t ? 1 : 0
            tolerance[x] = UInt16(truncatingIfNeeded: shifted.bitPattern) &- roundedUp
        }
    }

    /// `breaks` (columns 0 ..< width) for one row, and `vertical` (the same columns) against
    /// the row above; `classes` hole where there is no reading, else background; `copy` the row.
    /// Plain pointers in and out and one loop without exits, so that it compiles to vector code
    /// (SSE, NEON).
    @inline(__always)
    private static func markSteps(row: UnsafePointer<UInt16>, above: UnsafePointer<UInt16>, floor: UnsafePointer<UInt8>,
                                  width: Int, tolerance: UnsafePointer<UInt16>, toleranceAbove: UnsafePointer<UInt16>,
                                  breaks: UnsafeMutablePointer<UInt8>, vertical: UnsafeMutablePointer<UInt8>,
                                  classes: UnsafeMutablePointer<UInt8>, copy: UnsafeMutablePointer<UInt16>) {
        breaks[0] = 1
        vertical[0] = code(row[0], above[0], max(tolerance[0], toleranceAbove[0]))
        classes[0] = row[0] == 0 ? RunLabeller.hole : RunLabeller.background
        copy[0] = row[0]
        for x in 1..<max(1, width) {
            let a = row[x]
            let b = row[x - 1]
            // Both bytes as values before they are combined: written as a condition, the floor's
            // loads move under a branch and the loop stays scalar.
            let step: UInt8 = difference(a, b) > max(tolerance[x], tolerance[x - 1]) ? 1 : 0
            let missing: UInt8 = (a == 0 ? 1 : 0) | (b == 0 ? 1 : 0) | floor[x] | floor[x - 1]
            breaks[x] = (step | missing) != 0 ? 1 : 0
            vertical[x] = code(a, above[x], max(tolerance[x], toleranceAbove[x]))
            classes[x] = a == 0 ? RunLabeller.hole : RunLabeller.background
            copy[x] = a
        }
    }

    @inline(__always)
    private static func difference(_ a: UInt16, _ b: UInt16) -> UInt16 { a > b ? a &- b : b &- a }

    /// 0 when joined (see `joined`), 1 when `a` is the nearer reading, 2 when the farther.
    @inline(__always)
    private static func code(_ a: UInt16, _ b: UInt16, _ tolerance: UInt16) -> UInt8 {
        difference(a, b) > tolerance ? (a < b ? 1 : 2) : 0
    }

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
            let root = RunTable.find(i, in: parent)
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
