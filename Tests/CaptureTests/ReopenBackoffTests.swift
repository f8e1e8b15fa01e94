import Testing
@testable import Capture

@Suite struct ReopenBackoffTests {
    @Test func delaysDoubleUpToTheCapThenResetOnSuccess() {
        var backoff = ReopenBackoff(initialNanoseconds: 100, maximumNanoseconds: 500)
        #expect(backoff.isDue(now: 0))
        var now: UInt64 = 1_000
        var waits: [UInt64] = []
        for _ in 0..<5 {
            backoff.failed(now: now)
            waits.append(backoff.nextAttemptAt - now)
            #expect(!backoff.isDue(now: now))
            now = backoff.nextAttemptAt
            #expect(backoff.isDue(now: now))
        }
        #expect(waits == [100, 200, 400, 500, 500])
        #expect(backoff.attempts == 5)
        backoff.succeeded()
        #expect(backoff.isDue(now: now))
        backoff.failed(now: now)
        #expect(backoff.nextAttemptAt - now == 100)
    }
}
