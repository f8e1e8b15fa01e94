/// What DepthSegments computes, written for reading: whole runs and regions as arrays of
/// structs, every test a plain comparison, no lanes and no integer bounds. The specification
/// its optimised form is held to (MatteTests' SegmentsReferenceTests). Slow; for tests only.
///
/// Depth is in raw units (`unit` millimetres each, 0 = no reading), packed rows `width` apart.
/// `floor` marks per pixel: 0 none, 1 floor, 2 the floor's foot zone.
///  1. Runs: in each row, the maximal stretches of open pixels (a reading, no floor mark) whose
///     neighbours are `joined` (one surface: their difference within 30 mm + z^2 / 60 m of the
///     farther reading, in raw units).
///  2. A run's figures come from its two end readings: its depth range is theirs, and its depth
///     sum is their mean times its length (a run is one continuous surface).
///  3. Contacts, counted per pair of runs that meet (also when the two end up in one region):
///     two runs of one row split by a depth step meet at that one column; a run and a run of
///     the row above meet along their overlapping columns: every column up to the first joined
///     one is a contact (weight 1), the first joined one links them, and after it every 4th
///     column (4, 8, ... past it) that is not joined is a contact of weight 4. A contact counts
///     for the run whose reading is the farther as "nearer across" and for the other as
///     "farther across".
///  4. Regions: runs linked from row to row. A region's figures are its runs' summed (the depth
///     sum in raster order, in Float, as the optimised form adds them) and it is kept when it
///     has at least `minimumPixels`, its mean depth is within near...far, its depth range
///     within 1500 mm, its width (columns x pixelWidthMM x mean depth in metres) within 2500 mm,
///     and it is not ground: nearer-across contacts at most 4 x its farther-across ones.
///  5. Classes: hole where there is no reading, foreground on the kept regions' runs, else
///     background (the floor too). Then, row after row from the second (`feet`): a foot-zone
///     pixel (mark 2) under a foreground pixel of the finished row above, whose reading is joined
///     to that one's, becomes foreground; only when some did, foot-zone pixels are then grown
///     sideways in the row, left to right from a foreground left neighbour, then right to left
///     from a foreground right neighbour, each joined to that neighbour.
/// More runs than `capacity` is a frame too noisy to segment: nil.
public enum SegmentsReference {
    public struct Run: Equatable {
        public var y: Int
        public var start: Int
        /// One past the last column.
        public var end: Int
    }

    public struct Region {
        public var pixels = 0
        public var depthSum: Float = 0
        public var minimumX = Int.max
        public var maximumX = Int.min
        public var minimumZ = UInt16.max
        public var maximumZ = UInt16.min
        public var nearerAcross = 0
        public var fartherAcross = 0
        public var kept = false
    }

    public struct Result {
        public var classes: [UInt8]
        public var runs: [Run]
        /// Each run's region, regions numbered in raster order of their first run.
        public var regionOfRun: [Int]
        public var regions: [Region]
    }

    public static let maximumDepthSpanMM: Float = 1500
    public static let maximumWidthMM: Float = 2500
    public static let groundRatio = 4

    public static func joined(_ a: UInt16, _ b: UInt16, unit: Float) -> Bool {
        let base = 30 / unit
        let growth = unit / 60_000
        let far = max(Float(a), Float(b))
        return abs(Float(a) - Float(b)) <= base + far * far * growth
    }

    public static func segment(depth: [UInt16], floor: [UInt8], width: Int, height: Int, unit: Float,
                               near: UInt16, far: UInt16, minimumPixels: Int, pixelWidthMM: Float,
                               feet: Bool, capacity: Int) -> Result? {
        precondition(depth.count == width * height && floor.count == width * height)
        func d(_ x: Int, _ y: Int) -> UInt16 { depth[y * width + x] }
        func open(_ x: Int, _ y: Int) -> Bool { d(x, y) != 0 && floor[y * width + x] == 0 }
        func together(_ a: UInt16, _ b: UInt16) -> Bool { joined(a, b, unit: unit) }

        // 1. Runs.
        var runs: [Run] = []
        for y in 0..<height {
            var x = 0
            while x < width {
                guard open(x, y) else { x += 1; continue }
                var end = x + 1
                while end < width && open(end, y) && together(d(end - 1, y), d(end, y)) { end += 1 }
                runs.append(Run(y: y, start: x, end: end))
                x = end
            }
        }
        guard runs.count <= capacity else { return nil }

        // 3. Contacts per run, and the links between rows.
        var nearerAcross = [Int](repeating: 0, count: runs.count)
        var fartherAcross = [Int](repeating: 0, count: runs.count)
        var links: [[Int]] = Array(repeating: [], count: runs.count)
        func contact(_ a: Int, _ depthA: UInt16, _ b: Int, _ depthB: UInt16, weight: Int) {
            if depthA < depthB {
                fartherAcross[a] += weight
                nearerAcross[b] += weight
            } else {
                nearerAcross[a] += weight
                fartherAcross[b] += weight
            }
        }
        for (r, run) in runs.enumerated() {
            if r > 0 && runs[r - 1].y == run.y && runs[r - 1].end == run.start {
                contact(r, d(run.start, run.y), r - 1, d(run.start - 1, run.y), weight: 1)
            }
            guard run.y > 0 else { continue }
            for (b, above) in runs.enumerated() where above.y == run.y - 1 && above.start < run.end && above.end > run.start {
                let from = max(above.start, run.start)
                let to = min(above.end, run.end)
                var firstJoined: Int?
                for x in from..<to {
                    if together(d(x, run.y), d(x, above.y)) {
                        firstJoined = x
                        break
                    }
                    contact(r, d(x, run.y), b, d(x, above.y), weight: 1)
                }
                guard let link = firstJoined else { continue }
                links[r].append(b)
                links[b].append(r)
                for x in Swift.stride(from: link + 4, to: to, by: 4) where !together(d(x, run.y), d(x, above.y)) {
                    contact(r, d(x, run.y), b, d(x, above.y), weight: 4)
                }
            }
        }

        // 4. Regions over the links, numbered by their first run.
        var regionOfRun = [Int](repeating: -1, count: runs.count)
        var regionCount = 0
        for seed in runs.indices where regionOfRun[seed] < 0 {
            regionOfRun[seed] = regionCount
            var stack = [seed]
            while let r = stack.popLast() {
                for other in links[r] where regionOfRun[other] < 0 {
                    regionOfRun[other] = regionCount
                    stack.append(other)
                }
            }
            regionCount += 1
        }
        var regions = [Region](repeating: Region(), count: regionCount)
        for (r, run) in runs.enumerated() {
            let first = d(run.start, run.y)
            let last = d(run.end - 1, run.y)
            let length = run.end - run.start
            let g = regionOfRun[r]
            regions[g].pixels += length
            regions[g].depthSum += (Float(first) + Float(last)) * 0.5 * Float(length)
            regions[g].minimumX = min(regions[g].minimumX, run.start)
            regions[g].maximumX = max(regions[g].maximumX, run.end - 1)
            regions[g].minimumZ = min(regions[g].minimumZ, first, last)
            regions[g].maximumZ = max(regions[g].maximumZ, first, last)
            regions[g].nearerAcross += nearerAcross[r]
            regions[g].fartherAcross += fartherAcross[r]
        }
        for g in regions.indices {
            let region = regions[g]
            guard region.pixels >= minimumPixels else { continue }
            let mean = region.depthSum / Float(region.pixels)
            let columns = Float(region.maximumX - region.minimumX + 1)
            let widthMM = columns * pixelWidthMM * mean * unit / 1000
            regions[g].kept = mean >= Float(near) && mean <= Float(far)
                && Float(region.maximumZ) - Float(region.minimumZ) <= maximumDepthSpanMM / unit
                && widthMM <= maximumWidthMM
                && region.nearerAcross <= groundRatio * region.fartherAcross
        }

        // 5. Classes, then the feet.
        var classes = depth.map { $0 == 0 ? LabellerReference.hole : LabellerReference.background }
        for (r, run) in runs.enumerated() where regions[regionOfRun[r]].kept {
            for x in run.start..<run.end { classes[run.y * width + x] = LabellerReference.foreground }
        }
        if feet {
            let subject = LabellerReference.foreground
            for y in 1..<max(1, height) {
                func footZone(_ x: Int) -> Bool { floor[y * width + x] == 2 }
                var grown = false
                for x in 0..<width where footZone(x) && classes[(y - 1) * width + x] == subject
                    && together(d(x, y), d(x, y - 1)) {
                    classes[y * width + x] = subject
                    grown = true
                }
                guard grown else { continue }
                for x in Swift.stride(from: 1, to: width, by: 1) where footZone(x) && classes[y * width + x] != subject
                    && classes[y * width + x - 1] == subject && together(d(x, y), d(x - 1, y)) {
                    classes[y * width + x] = subject
                }
                for x in Swift.stride(from: width - 2, through: 0, by: -1) where footZone(x)
                    && classes[y * width + x] != subject && classes[y * width + x + 1] == subject
                    && together(d(x, y), d(x + 1, y)) {
                    classes[y * width + x] = subject
                }
            }
        }
        return Result(classes: classes, runs: runs, regionOfRun: regionOfRun, regions: regions)
    }
}
