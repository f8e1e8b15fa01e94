import Testing
@testable import Pipeline

@Suite struct LatencyHistogramTests {
    @Test func percentilesFollowTheSamples() {
        var histogram = LatencyHistogram()
        for index in 1...100 { histogram.record(nanoseconds: UInt64(index) * 1_000_000) }
        #expect(histogram.count == 100)
        #expect(histogram.percentile(50) == 50_010_000)
        #expect(histogram.percentile(99) == 99_010_000)
        #expect(histogram.maximumNanoseconds == 100_000_000)
    }

    @Test func overlongSamplesLandInTheLastBucketButKeepTheirMaximum() {
        var histogram = LatencyHistogram()
        histogram.record(nanoseconds: 5_000_000_000)
        #expect(histogram.percentile(50) == 2_000_000_000)
        #expect(histogram.maximumNanoseconds == 5_000_000_000)
        histogram.reset()
        #expect(histogram.count == 0 && histogram.percentile(99) == 0)
    }

    @Test func millisecondsPrintWithTwoDecimals() {
        #expect(LatencyHistogram.milliseconds(1_234_567) == "1.23")
        #expect(LatencyHistogram.milliseconds(40_000) == "0.04")
        #expect(LatencyHistogram.milliseconds(0) == "0.00")
    }
}
