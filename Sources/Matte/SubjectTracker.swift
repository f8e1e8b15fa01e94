import Frames

/// Auto mode's subject distance: the nearest substantial cluster in a depth histogram of the
/// central region, followed over time with a dead band so the matte's far edge does not pump
/// with sensor noise. The analogue of the face depth Apple's TrueDepth backdrop sample keys on.
/// A new cluster counts as the subject only when something farther shows behind it (an empty
/// booth's back wall is not a person); the tracked subject keeps counting when it comes close
/// enough to fill the region.
final class SubjectTracker {
    static let binMM = 32
    static let binCount = 2048
    /// Frames without a subject before the booth counts as empty: half a second at 30 fps, so
    /// one bad frame does not blink the person out.
    static let graceFrames = 15

    /// `copies` histograms side by side, samples dealt to them in turn, then summed into `totals`:
    /// neighbouring samples mostly fall in one bin, and counting them all in one table chained
    /// every increment on the one before it (a store then a load of the same word).
    private let histogram: UnsafeMutablePointer<UInt32>
    private static let copies = 4
    /// The copies' sum for the frame being measured; the copies are cleared as they are summed,
    /// so they start every frame at 0 without a pass of their own.
    private let totals: UnsafeMutablePointer<UInt32>
    private(set) var trackedMM: Int?
    private var missedFrames = 0

    init() {
        histogram = UnsafeMutablePointer<UInt32>.allocate(capacity: Self.copies * Self.binCount)
        histogram.initialize(repeating: 0, count: Self.copies * Self.binCount)
        totals = UnsafeMutablePointer<UInt32>.allocate(capacity: Self.binCount)
        totals.initialize(repeating: 0, count: Self.binCount)
    }

    deinit {
        histogram.deallocate()
        totals.deallocate()
    }

    func reset() {
        trackedMM = nil
        missedFrames = 0
    }

    /// Measures this frame's subject and updates the tracked distance. `depth` is raw units,
    /// `rowStride` in elements.
    func observe(depth: UnsafePointer<UInt16>, rowStride: Int, size: FrameSize, unitMM: Float,
                 parameters: MatteParameters) {
        let (found, backed) = measure(depth: depth, rowStride: rowStride, size: size, unitMM: unitMM,
                                      parameters: parameters)
        // A cluster with nothing behind it is accepted only as the subject already tracked
        // (someone stepping close enough to fill the region), never as a new one.
        var measured = found
        if let depth = found, !backed {
            let continuing = trackedMM.map { abs(depth - $0) <= max(200, 2 * parameters.hysteresisMM) } ?? false
            if !continuing { measured = nil }
        }
        guard let measured else {
            missedFrames += 1
            if missedFrames > Self.graceFrames { trackedMM = nil }
            return
        }
        missedFrames = 0
        guard let tracked = trackedMM else {
            trackedMM = measured
            return
        }
        let error = measured - tracked
        let band = max(0, parameters.hysteresisMM)
        if error > band {
            trackedMM = measured - band / 2
        } else if error < -band {
            trackedMM = measured + band / 2
        }
    }

    /// The subject distance, and whether anything shows behind it.
    private func measure(depth: UnsafePointer<UInt16>, rowStride: Int, size: FrameSize, unitMM: Float,
                         parameters: MatteParameters) -> (Int?, Bool) {
        let percent = min(100, max(10, parameters.regionPercent))
        let regionWidth = max(1, size.width * percent / 100)
        let regionHeight = max(1, size.height * percent / 100)
        let x0 = (size.width - regionWidth) / 2
        let y0 = (size.height - regionHeight) / 2
        // A sparse grid of about 40 000 samples (every second pixel at 640x480, every fourth at
        // 1080p): the same statistics at a fraction of the cost.
        var step = 2
        while (regionWidth / step) * (regionHeight / step) > 40_000 { step += 1 }
        let scale = UInt32(max(1, min(Float(1 << 22), unitMM * Float(1 << 16) / Float(Self.binMM))))
        var samples = 0
        var y = y0
        while y < y0 + regionHeight {
            let row = depth + y * rowStride
            if scale <= UInt32(Self.binCount) {
                countUnclamped(row: row, from: x0, to: x0 + regionWidth, step: step, scale: scale)
            } else {
                count(row: row, from: x0, to: x0 + regionWidth, step: step, scale: scale)
            }
            samples &+= (regionWidth + step - 1) / step
            y &+= step
        }
        sumCopies()
        let nearBin = max(1, parameters.nearMM / Self.binMM)
        let lastBin = min(Self.binCount - 1, parameters.subjectMaximumMM / Self.binMM)
        guard nearBin + 1 < lastBin else { return (nil, false) }
        // A cluster counts when a 160 mm slab holds 3 % of the region: a person, not a stray
        // hand-sized patch of noise or a chair back at the edge of the region.
        let window = 5
        let needed = UInt32(max(1, samples * 3 / 100))
        var sum: UInt32 = 0
        for bin in nearBin..<min(nearBin + window, lastBin + 1) { sum += totals[bin] }
        var start = -1
        var bin = nearBin
        while bin + window <= lastBin + 1 {
            if sum >= needed { start = bin; break }
            sum -= totals[bin]
            if bin + window <= lastBin { sum += totals[bin + window] }
            bin += 1
        }
        guard start >= 0 else { return (nil, false) }
        // The subject is the median of the 400 mm behind the cluster's front: the torso, which the
        // far margin is measured from, and steady however the arms move.
        let end = min(lastBin + 1, start + 400 / Self.binMM + 1)
        var total: UInt32 = 0
        for b in start..<end { total += totals[b] }
        // A subject stands in front of something. A cluster with nothing behind it is the back
        // wall of an empty booth, not a person.
        var behind: UInt32 = 0
        for b in end..<Self.binCount { behind &+= totals[b] }
        let backed = behind >= needed
        var cumulative: UInt32 = 0
        for b in start..<end {
            cumulative += totals[b]
            if cumulative * 2 >= total { return (b * Self.binMM + Self.binMM / 2, backed) }
        }
        return (nil, false)
    }

    /// Every `step`th reading of `row[from..<to]` into the copies, in turn.
    @inline(__always)
    private func count(row: UnsafePointer<UInt16>, from: Int, to: Int, step: Int, scale: UInt32) {
        let histogram = self.histogram
        let copyMask = Self.copies * Self.binCount - 1
        var copy = 0
        var x = from
        while x < to {
            let raw = UInt64(row[x])
            let bin = min(UInt64(Self.binCount - 1), (raw &* UInt64(scale)) &>> 16)
            histogram[copy | Int(bin)] &+= 1
            copy = (copy &+ Self.binCount) & copyMask
            x &+= step
        }
    }

    /// `count` for a scale of at most `binCount` (units of at most 1 mm): the largest bin is then
    /// (65535 * scale) >> 16 < binCount, so no clamp, and the product fits 32 bits. A power of
    /// two (1 mm units: 2048) is a shift alone.
    @inline(__always)
    private func countUnclamped(row: UnsafePointer<UInt16>, from: Int, to: Int, step: Int, scale: UInt32) {
        let x: Int
        if scale & (scale &- 1) == 0 {
            let shift = UInt32(truncatingIfNeeded: 16 &- scale.trailingZeroBitCount)
            x = countEvery(row: row, from: from, to: to, step: step) { UInt32($0) &>> shift }
        } else {
            x = countEvery(row: row, from: from, to: to, step: step) { (UInt32($0) &* scale) &>> 16 }
        }
        if x < to { count(row: row, from: x, to: to, step: step, scale: scale) }
    }

    /// Every `step`th reading's `bin` counted, eight a step, two to each copy; returns where the
    /// last fewer than eight, left to the caller, start.
    @inline(__always)
    private func countEvery(row: UnsafePointer<UInt16>, from: Int, to: Int, step: Int,
                            bin: (UInt16) -> UInt32) -> Int {
        let histogram = self.histogram
        let b = Self.binCount
        @inline(__always) func add(_ copy: Int, _ x: Int) {
            histogram[copy &* b &+ Int(truncatingIfNeeded: bin(row[x]))] &+= 1
        }
        var x = from
        while x &+ 7 &* step < to {
            add(0, x)
            add(1, x &+ step)
            add(2, x &+ 2 &* step)
            add(3, x &+ 3 &* step)
            add(0, x &+ 4 &* step)
            add(1, x &+ 5 &* step)
            add(2, x &+ 6 &* step)
            add(3, x &+ 7 &* step)
            x &+= 8 &* step
        }
        return x
    }

    /// `totals` = the copies' sum; the copies are left at 0 for the next frame.
    @inline(__always)
    private func sumCopies() {
        let b = Self.binCount
        let histogram = self.histogram
        for i in 0..<b {
            totals[i] = histogram[i] &+ histogram[b &+ i] &+ histogram[2 &* b &+ i] &+ histogram[3 &* b &+ i]
            histogram[i] = 0
            histogram[b &+ i] = 0
            histogram[2 &* b &+ i] = 0
            histogram[3 &* b &+ i] = 0
        }
    }
}
