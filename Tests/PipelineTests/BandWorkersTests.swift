import Testing
@testable import Pipeline

@Suite struct BandWorkersTests {
    @Test func bandsCoverEveryRowOnce() throws {
        let workers = try BandWorkers(helperCPUMasks: [0, 0], realtimePriority: 0)
        defer { workers.stop() }
        var covered = [Int](repeating: 0, count: 719)
        for band in 0..<workers.bandCount {
            for row in workers.rows(ofBand: band, total: 719) { covered[row] += 1 }
        }
        #expect(covered.allSatisfy { $0 == 1 })
    }

    @Test func everyBandRunsOncePerRound() throws {
        let workers = try BandWorkers(helperCPUMasks: [0, 0, 0], realtimePriority: 0)
        defer { workers.stop() }
        // Each band writes only its own element; runBands returning orders those writes before the reads.
        let counts = UnsafeMutablePointer<Int>.allocate(capacity: 4)
        counts.initialize(repeating: 0, count: 4)
        defer { counts.deallocate() }
        workers.setWork { band in counts[band] += 1 }
        for _ in 0..<50 { workers.runBands() }
        for band in 0..<4 { #expect(counts[band] == 50) }
    }
}

