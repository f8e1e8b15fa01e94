import Import
import Synchronization
import TestSupport
import Testing

/// A stop (SIGTERM from systemd when the stick's device unit goes away) asked for in the middle of
/// an import, through `Options.stopRequested` as the command wires it to the pending signal. Before
/// the switch the new generation is abandoned: a runtime failure (exit 1) that says so, the
/// generation that was current stays current and whole, no staging folder is left, and the screen
/// text says the import stopped. The real signal through the command: tests/import/stop.sh.
@Suite struct StickStopTests {

    /// When the stop "arrives": after the stick file whose label ends with `afterFile` was read.
    final class Stop: Sendable {
        private let requested = Mutex(false)
        private let asked = Mutex(0)
        let afterFile: String
        init(afterFile: String) { self.afterFile = afterFile }
        func read(_ label: String) { if label.hasSuffix(afterFile) { requested.withLock { $0 = true } } }
        func pending() -> String? {
            asked.withLock { $0 += 1 }
            return requested.withLock { $0 } ? "SIGTERM" : nil
        }
        var timesAsked: Int { asked.withLock { $0 } }
    }

    private func run(_ fixture: StickFixture, stop: Stop) -> ImportReport {
        var options = StickImport.Options(stick: fixture.stick.path)
        options.data = fixture.data
        options.baseConfig = nil
        options.afterRead = { stop.read($0) }
        options.stopRequested = { stop.pending() }
        return StickImport.run(options)
    }

    /// Stops after the config, after the first and third backdrop, and after the last one (caught
    /// by the check just before the switch).
    @Test(arguments: ["backdrop.conf", "b.png", "d.png", "e.png"])
    func aStopBeforeTheSwitchKeepsTheCurrentGeneration(afterFile: String) {
        let fixture = StickFixture.overAFirstGeneration()
        let report = run(fixture, stop: Stop(afterFile: afterFile))
        guard case .failed(let reason) = report.outcome else {
            Issue.record("expected a runtime failure, got \(report.outcome): \(report.transcript)")
            return
        }
        #expect(reason.contains("stopped by SIGTERM"), "\(reason)")
        #expect(report.outcome.exitStatus == 1)
        #expect(report.screenText == "IMPORT STOPPED - OLD SET KEPT")
        #expect(report.says("nothing was changed"), "\(report.transcript)")
        #expect(fixture.current() == "generations/000001")
        #expect(fixture.currentBackdrops() == ["a.png"])
        #expect(fixture.stored(StickFixture.firstConfig))
        #expect(fixture.generations() == ["000001"], "the abandoned generation is removed")
    }

    @Test func withoutAStopTheSameImportComesInAndIsAskedBetweenFiles() {
        let fixture = StickFixture.overAFirstGeneration()
        let stop = Stop(afterFile: "never")
        let report = run(fixture, stop: stop)
        #expect(report.outcome == .newGeneration("000002"), "\(report.transcript)")
        #expect(fixture.currentBackdrops() == ["a.png", "b.png", "c.png", "d.png", "e.png"])
        // Once after the config, once before each of the five backdrops, once before the switch.
        #expect(stop.timesAsked == 7)
    }

    @Test func theStickAgainAfterAStopComesInWhole() {
        let fixture = StickFixture.overAFirstGeneration()
        _ = run(fixture, stop: Stop(afterFile: "c.png"))
        let again = fixture.run()
        #expect(again.outcome == .newGeneration("000002"), "\(again.transcript)")
        #expect(fixture.currentBackdrops() == ["a.png", "b.png", "c.png", "d.png", "e.png"])
        #expect(fixture.previous() == "generations/000001")
    }
}
