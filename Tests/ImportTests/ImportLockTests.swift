import Import
import KernelIO
import Synchronization
import Testing

/// One import at a time on a data folder (`ImportLock`): a second import waits for the lock, and
/// when it stays taken says BUSY and changes nothing; once it is free the same import comes in.
@Suite struct ImportLockTests {
    final class Asked: Sendable {
        private let count = Mutex(0)
        let answer: String?
        init(answer: String?) { self.answer = answer }
        func pending() -> String? { count.withLock { $0 += 1 }; return answer }
        var times: Int { count.withLock { $0 } }
    }

    private func options(_ fixture: StickFixture, asked: Asked) -> StickImport.Options {
        var options = StickImport.Options(stick: fixture.stick.path)
        options.data = fixture.data
        options.baseConfig = nil
        options.lockAttempts = 3
        options.lockIntervalNS = 1_000_000
        options.stopRequested = { asked.pending() }
        return options
    }

    private func isFree(_ data: borrowing DataFolder) throws -> Bool {
        guard let lock = try ImportLock.tryTake(in: data) else { return false }
        lock.release()
        return true
    }

    @Test func theLockIsExclusiveUntilReleased() throws {
        let fixture = StickFixture.overAFirstGeneration()
        let data = try DataFolder.open(fixture.data)
        guard let held = try ImportLock.tryTake(in: data) else { Issue.record("a free lock was not taken"); return }
        // Another open file of the same lock (as another process has) does not get it.
        #expect(try !isFree(data))
        held.release()
        #expect(try isFree(data))
    }

    @Test func anImportWhileAnotherHoldsTheFolderSaysBusyAndChangesNothing() throws {
        let fixture = StickFixture.overAFirstGeneration()
        let data = try DataFolder.open(fixture.data)
        guard let held = try ImportLock.tryTake(in: data) else { Issue.record("a free lock was not taken"); return }
        let asked = Asked(answer: nil)
        let report = StickImport.run(options(fixture, asked: asked))
        guard case .failed(let reason) = report.outcome else {
            Issue.record("expected a failure while the folder is locked, got \(report.outcome): \(report.transcript)")
            held.release()
            return
        }
        #expect(reason.contains("another import"), "\(reason)")
        #expect(report.screenText == "IMPORT FAILED: BUSY WITH ANOTHER IMPORT - OLD SET KEPT")
        #expect(asked.times >= 3, "the wait asks for a stop before each retry")
        #expect(fixture.current() == "generations/000001")
        #expect(fixture.generations() == ["000001"])
        held.release()
        // Free again: the same stick comes in.
        let again = StickImport.run(options(fixture, asked: Asked(answer: nil)))
        #expect(again.outcome == .newGeneration("000002"), "\(again.transcript)")
    }

    @Test func aStopWhileWaitingEndsTheWaitAsAStop() throws {
        let fixture = StickFixture.overAFirstGeneration()
        let data = try DataFolder.open(fixture.data)
        guard let held = try ImportLock.tryTake(in: data) else { Issue.record("a free lock was not taken"); return }
        let report = StickImport.run(options(fixture, asked: Asked(answer: "SIGTERM")))
        #expect(report.screenText == "IMPORT STOPPED - OLD SET KEPT", "\(report.transcript)")
        #expect(report.outcome.exitStatus == 1)
        #expect(fixture.generations() == ["000001"])
        held.release()
    }
}
