import CFaultInjector
import CKernel
import Import
import KernelIO
import TestSupport
import Testing

/// The stick pulled out in the middle of an import: its reads fail (EIO, ENODEV: the fault
/// injector at the funnel) or its files and folders vanish (a test hook removes them between two
/// reads). Each time the import is a runtime failure (exit 1) that says the stick went away, the
/// generation that was current stays current and whole, nothing half-built is left, and the
/// screen is told in a few words.
@Suite struct StickUnplugTests {
    private func expectUnchanged(_ fixture: StickFixture, after report: ImportReport,
                                 sourceLocation: SourceLocation = #_sourceLocation) {
        guard case .failed(let reason) = report.outcome else {
            Issue.record("expected a runtime failure, got \(report.outcome): \(report.transcript)", sourceLocation: sourceLocation)
            return
        }
        #expect(reason.contains("unplugged"), "\(reason)", sourceLocation: sourceLocation)
        #expect(report.outcome.exitStatus == 1, sourceLocation: sourceLocation)
        #expect(report.screenText == "IMPORT FAILED: STICK REMOVED OR FAILING - OLD SET KEPT", sourceLocation: sourceLocation)
        #expect(fixture.current() == "generations/000001", sourceLocation: sourceLocation)
        #expect(fixture.currentBackdrops() == ["a.png"], sourceLocation: sourceLocation)
        #expect(fixture.stored(StickFixture.firstConfig), sourceLocation: sourceLocation)
        #expect(fixture.generations() == ["000001"], "no half generation left", sourceLocation: sourceLocation)
    }

    static let midCopyFaults: [(call: Int32, error: Int32, skip: Int32)] = {
        var faults: [(call: Int32, error: Int32, skip: Int32)] = []
        for call in [Int32(BK_CALL_READ), Int32(BK_CALL_OPEN)] {
            for error in [Int32(BK_EIO), Int32(BK_ENODEV)] {
                for skip: Int32 in [2, 4, 6] { faults.append((call, error, skip)) }
            }
        }
        return faults
    }()

    @Test(arguments: 0..<12)
    func readsThatStartFailingMidCopyKeepTheCurrentGeneration(case index: Int) {
        let (call, error, skip) = Self.midCopyFaults[index]
        let fixture = StickFixture.overAFirstGeneration()
        _ = fault_scope_begin()
        fault_fail(call, Int32(FAULT_FILES), 0, error, skip, -1)
        let report = fixture.run()
        fault_scope_end()
        // An open that failed on the data disk's side is a disk error, not an unplug: both keep
        // the box as it was; only the stick's side says "unplugged".
        if case .failed(let reason) = report.outcome, !reason.contains("unplugged") {
            #expect(report.screenText.hasPrefix("IMPORT FAILED: "), "\(report.transcript)")
            #expect(fixture.current() == "generations/000001")
            #expect(fixture.generations() == ["000001"])
            return
        }
        expectUnchanged(fixture, after: report)
    }

    @Test func theWholeStickVanishingAfterTheFirstBackdropKeepsTheCurrentGeneration() {
        let fixture = StickFixture.overAFirstGeneration()
        let tree = fixture.stick.file("backdrop")
        var options = StickImport.Options(stick: fixture.stick.path)
        options.data = fixture.data
        options.baseConfig = nil
        options.afterRead = { label in if label.hasSuffix("b.png") { TemporaryDirectory.removeTree(tree) } }
        expectUnchanged(fixture, after: StickImport.run(options))
    }

    @Test func filesVanishingWhileTheFoldersStayKeepTheCurrentGeneration() {
        let fixture = StickFixture.overAFirstGeneration()
        let folder = fixture.path("backgrounds")
        var options = StickImport.Options(stick: fixture.stick.path)
        options.data = fixture.data
        options.baseConfig = nil
        options.afterRead = { label in
            guard label.hasSuffix("c.png") else { return }
            for name in ["d.png", "e.png"] { _ = bk_unlink(folder + "/" + name) }
        }
        expectUnchanged(fixture, after: StickImport.run(options))
    }

    @Test func theStickVanishingAfterItsLastFileIsStillNoticed() {
        let fixture = StickFixture.overAFirstGeneration()
        let tree = fixture.stick.file("backdrop")
        var options = StickImport.Options(stick: fixture.stick.path)
        options.data = fixture.data
        options.baseConfig = nil
        options.afterRead = { label in if label.hasSuffix("e.png") { TemporaryDirectory.removeTree(tree) } }
        expectUnchanged(fixture, after: StickImport.run(options))
    }

    @Test func theSameStickPluggedInAgainComesInWhole() {
        let fixture = StickFixture.overAFirstGeneration()
        _ = fault_scope_begin()
        fault_fail(Int32(BK_CALL_READ), Int32(FAULT_FILES), 0, Int32(BK_ENODEV), 3, -1)
        let cut = fixture.run()
        fault_scope_end()
        expectUnchanged(fixture, after: cut)
        let again = fixture.run()
        #expect(again.outcome == .newGeneration("000002"), "\(again.transcript)")
        #expect(fixture.currentBackdrops() == ["a.png", "b.png", "c.png", "d.png", "e.png"])
        #expect(fixture.generations() == ["000001", "000002"])
    }
}
