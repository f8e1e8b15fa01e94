/// Latency samples of one stage, kept as a fixed histogram so recording a sample never allocates.
/// 10 µs buckets up to 2 s; anything longer lands in the last bucket (the exact maximum is kept).
public struct LatencyHistogram {
    public static let bucketNanoseconds: UInt64 = 10_000
    public static let bucketCount = 200_000

    private var buckets: [UInt32]
    public private(set) var count = 0
    public private(set) var maximumNanoseconds: UInt64 = 0

    public init() { buckets = [UInt32](repeating: 0, count: Self.bucketCount) }

    public mutating func record(nanoseconds: UInt64) {
        let bucket = min(Int(nanoseconds / Self.bucketNanoseconds), Self.bucketCount - 1)
        buckets[bucket] &+= 1
        count += 1
        if nanoseconds > maximumNanoseconds { maximumNanoseconds = nanoseconds }
    }

    /// The upper edge of the bucket holding the given percentile (0...100), in nanoseconds.
    public func percentile(_ percent: Int) -> UInt64 {
        guard count > 0 else { return 0 }
        let rank = max(1, (count * percent + 99) / 100)
        var seen = 0
        for index in buckets.indices {
            seen += Int(buckets[index])
            if seen >= rank { return min(UInt64(index + 1) * Self.bucketNanoseconds, maximumNanoseconds) }
        }
        return maximumNanoseconds
    }

    public mutating func reset() {
        for index in buckets.indices { buckets[index] = 0 }
        count = 0
        maximumNanoseconds = 0
    }

    /// "p50 1.23 ms, p99 4.56 ms, max 7.89 ms (n=300)"
    public var summary: String {
        "p50 \(Self.milliseconds(percentile(50))) ms, p99 \(Self.milliseconds(percentile(99))) ms, "
            + "max \(Self.milliseconds(maximumNanoseconds)) ms (n=\(count))"
    }

    /// Milliseconds with two decimals, without Foundation's formatting.
    public static func milliseconds(_ nanoseconds: UInt64) -> String {
        let hundredths = (nanoseconds + 5_000) / 10_000
        let fraction = hundredths % 100
        return "\(hundredths / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
    }
}
