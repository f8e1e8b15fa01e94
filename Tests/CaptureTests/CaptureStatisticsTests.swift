import Frames
import Testing
@testable import Capture

@Suite struct CaptureStatisticsTests {
    @Test func holesInTheSequenceCountAsSkippedFrames() {
        var statistics = CaptureStatistics()
        for (time, sequence) in [(100, 7), (200, 8), (300, 11), (400, 12)] as [(UInt64, UInt32)] {
            statistics.record(FrameStamp(nanoseconds: time, sequence: sequence))
        }
        #expect(statistics.frames == 4)
        #expect(statistics.sequenceGaps == 2)
        #expect(statistics.nonMonotonicStamps == 0)
    }

    @Test func aRestartedStreamIsNotAGap() {
        var statistics = CaptureStatistics()
        statistics.record(FrameStamp(nanoseconds: 100, sequence: 500))
        statistics.restart()
        statistics.record(FrameStamp(nanoseconds: 200, sequence: 0))
        statistics.record(FrameStamp(nanoseconds: 300, sequence: 1))
        #expect(statistics.sequenceGaps == 0)
        // A sequence that goes backwards without a restart is not counted as a gap either.
        statistics.record(FrameStamp(nanoseconds: 400, sequence: 0))
        #expect(statistics.sequenceGaps == 0)
    }

    @Test func timestampsThatDoNotAdvanceAreCounted() {
        var statistics = CaptureStatistics()
        statistics.record(FrameStamp(nanoseconds: 300, sequence: 0))
        statistics.record(FrameStamp(nanoseconds: 300, sequence: 1))
        statistics.record(FrameStamp(nanoseconds: 200, sequence: 2))
        #expect(statistics.nonMonotonicStamps == 2)
        #expect(statistics.summary == "3 frames, 0 skipped by the driver, 0 bad, 2 out of order, 0 DQBUF errors")
    }
}
