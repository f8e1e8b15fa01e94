import Matte

/// What SubjectTracker computes, with one plain histogram: the specification its four
/// interleaved tables and shifted bins are held to (MatteTests' SubjectReferenceTests).
///
/// Each frame: readings on a grid of every `step`th pixel (step from 2 up until at most 40 000
/// samples) of the central `regionPercent` of the frame go into 32 mm bins (bin = reading x
/// unit x 65536 / 32 >> 16, the scale truncated to an integer and held within 1...2^22, the
/// bin capped at the last). Between near_mm and subject_max_mm, the first five-bin (160 mm)
/// window holding 3 % of the samples is the front of a cluster; the subject is the median bin of
/// the 400 mm from that front (the torso), at its bin's middle; it is "backed" when the bins
/// behind those 400 mm also hold 3 %. An unbacked cluster counts only as the subject already
/// tracked (within max(200, 2 x hysteresis)). Tracking: none for more than 15 frames forgets the
/// subject; the first one found is taken as is; later ones move the tracked distance only past
/// the hysteresis band, to half a band short of the new one.
public struct SubjectReference {
    public static let binMM = 32
    public static let binCount = 2048
    public static let graceFrames = 15

    public private(set) var trackedMM: Int?
    private var missedFrames = 0

    public init() {}

    public mutating func observe(depth: [UInt16], stride: Int, width: Int, height: Int, unitMM: Float,
                                 parameters: MatteParameters) {
        var measured: Int?
        if let (front, backed) = Self.measure(depth: depth, stride: stride, width: width, height: height,
                                              unitMM: unitMM, parameters: parameters) {
            let continuing = trackedMM.map { abs(front - $0) <= max(200, 2 * parameters.hysteresisMM) } ?? false
            measured = backed || continuing ? front : nil
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
        let band = max(0, parameters.hysteresisMM)
        if measured - tracked > band {
            trackedMM = measured - band / 2
        } else if measured - tracked < -band {
            trackedMM = measured + band / 2
        }
    }

    /// The subject's distance (millimetres) and whether something shows behind it.
    static func measure(depth: [UInt16], stride: Int, width: Int, height: Int, unitMM: Float,
                        parameters: MatteParameters) -> (Int, Bool)? {
        let percent = min(100, max(10, parameters.regionPercent))
        let regionWidth = max(1, width * percent / 100)
        let regionHeight = max(1, height * percent / 100)
        let left = (width - regionWidth) / 2
        let top = (height - regionHeight) / 2
        var step = 2
        while (regionWidth / step) * (regionHeight / step) > 40_000 { step += 1 }
        let scale = Int(max(1, min(Float(1 << 22), unitMM * Float(1 << 16) / Float(binMM))))
        var histogram = [Int](repeating: 0, count: binCount)
        var samples = 0
        for y in Swift.stride(from: top, to: top + regionHeight, by: step) {
            for x in Swift.stride(from: left, to: left + regionWidth, by: step) {
                histogram[min(binCount - 1, (Int(depth[y * stride + x]) * scale) >> 16)] += 1
                samples += 1
            }
        }
        let nearBin = max(1, parameters.nearMM / binMM)
        let lastBin = min(binCount - 1, parameters.subjectMaximumMM / binMM)
        guard nearBin + 1 < lastBin else { return nil }
        let needed = max(1, samples * 3 / 100)
        func sum(_ bins: Range<Int>) -> Int { bins.reduce(0) { $0 + histogram[$1] } }
        // The window's five bins must all lie within nearBin...lastBin.
        guard let front = Swift.stride(from: nearBin, through: lastBin - 4, by: 1)
            .first(where: { sum($0..<($0 + 5)) >= needed }) else { return nil }
        let end = min(lastBin + 1, front + 400 / binMM + 1)
        let total = sum(front..<end)
        let backed = sum(end..<binCount) >= needed
        var cumulative = 0
        for bin in front..<end {
            cumulative += histogram[bin]
            if cumulative * 2 >= total { return (bin * binMM + binMM / 2, backed) }
        }
        return nil
    }
}
