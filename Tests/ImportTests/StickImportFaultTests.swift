import CFaultInjector
import CKernel
import Foundation
import Import
import KernelIO
import TestSupport
import Testing

/// Kernel errors while a stick is imported (CFaultInjector at the funnel): the import ends as a
/// runtime failure that says what failed and why, the generation that was current stays current
/// and whole, and nothing half-built is left; interrupted calls change nothing at all.
@Suite struct StickImportFaultTests {
    static let goodConfig = "[matte]\nfar_mm = 2500\n"

    @Test(arguments: [(Int32(BK_ENOSPC), "No space left on device", Int32(BK_CALL_WRITE)),
                      (Int32(BK_EIO), "Input/output error", Int32(BK_CALL_WRITE)),
                      (Int32(BK_EIO), "Input/output error", Int32(BK_CALL_FSYNC)),
                      (Int32(BK_EIO), "Input/output error", Int32(BK_CALL_READ))])
    func aFailingDiskOrStickKeepsThePreviousGenerationCurrent(error: Int32, words: String, call: Int32) {
        let fixture = StickFixture(config: Self.goodConfig, backdrops: ["a.png": StickFixture.png(seed: 1)])
        #expect(fixture.run().outcome == .newGeneration("000001"))
        fixture.put("backgrounds/b.png", StickFixture.png(seed: 2))
        fixture.put("backdrop.conf", Array("[matte]\nfar_mm = 2600\n".utf8))

        _ = fault_scope_begin()
        fault_fail(call, Int32(FAULT_FILES), 0, error, 0, -1)
        let report = fixture.run()
        fault_scope_end()

        guard case .failed(let reason) = report.outcome else {
            Issue.record("expected a failure, got \(report.outcome): \(report.transcript)")
            return
        }
        #expect(reason.contains(words), "\(reason)")
        #expect(report.outcome.exitStatus == 1)
        #expect(fixture.current() == "generations/000001")
        #expect(fixture.currentBackdrops() == ["a.png"])
        #expect(fixture.stored(Self.goodConfig))
        #expect(fixture.generations() == ["000001"], "nothing half-built is left")
        // With the disk well again the same stick comes in.
        #expect(fixture.run().outcome == .newGeneration("000002"))
        #expect(fixture.currentBackdrops() == ["a.png", "b.png"])
    }

    @Test func everyCallInterruptedOnceImportsTheSameGeneration() {
        let backdrops = ["a.png": StickFixture.png(seed: 1), "b.jpg": StickFixture.jpeg()]
        let clean = StickFixture(config: Self.goodConfig, backdrops: backdrops)
        let cleanReport = clean.run()
        #expect(cleanReport.outcome == .newGeneration("000001"))

        let interrupted = StickFixture(config: Self.goodConfig, backdrops: backdrops)
        _ = fault_scope_begin()
        defer { fault_scope_end() }
        fault_interrupt_each(Int32(BK_CALL_READ | BK_CALL_WRITE | BK_CALL_IOCTL | BK_CALL_WAIT))
        let report = interrupted.run()
        #expect(fault_injected() > 5)
        #expect(report.outcome == .newGeneration("000001"), "\(report.transcript)")
        #expect(interrupted.currentBackdrops() == ["a.png", "b.jpg"])
        #expect(interrupted.stored(Self.goodConfig))
        let dropPaths = { (text: String, fixture: StickFixture) in
            text.replacingOccurrences(of: fixture.stick.path, with: "STICK").replacingOccurrences(of: fixture.data, with: "DATA")
        }
        #expect(dropPaths(report.transcript, interrupted) == dropPaths(cleanReport.transcript, clean))
    }
}
