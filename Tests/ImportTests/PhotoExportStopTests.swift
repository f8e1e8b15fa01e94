import CKernel
import Import
import KernelIO
import Synchronization
import TestSupport
import Testing

/// A stop (SIGTERM from systemd when the stick's unit is stopped: the stick was pulled) asked for
/// in the middle of a photo export, through `PhotoExport.Options.stopRequested` as the command
/// wires it to the pending signal. The export ends at once with exit 1 and says how far it got;
/// the stick holds whole photos only under their names and no temporary; the box's photos are as
/// they were; the export record names exactly the photos that are whole on the stick; the next
/// export copies the rest, none twice. The real signal through the command: tests/import/stop.sh.
@Suite struct PhotoExportStopTests {
    static let photos = ["p1.jpg", "p2.jpg", "p3.jpg", "p4.jpg"]

    /// Answers nil until it has been asked `stopAt - 1` times, then "SIGTERM" for good.
    final class Stop: Sendable {
        private let asked = Mutex(0)
        let stopAt: Int
        init(at ask: Int) { stopAt = ask }
        func pending() -> String? {
            asked.withLock { count in
                count += 1
                return count >= stopAt ? "SIGTERM" : nil
            }
        }
        var timesAsked: Int { asked.withLock { $0 } }
    }

    /// A box with four photos of different sizes and a stick that asks for them.
    private func fixture() -> StickFixture {
        let fixture = StickFixture()
        #expect(bk_mkdir(fixture.data, 0o755) == 0)
        #expect(bk_mkdir(fixture.data + "/photos", 0o755) == 0)
        for (index, name) in Self.photos.enumerated() { _ = fixture.box.write("data/photos/" + name, Self.bytes(index)) }
        fixture.makeFolder("photos")
        return fixture
    }

    private static func bytes(_ index: Int) -> [UInt8] {
        (0..<(4096 * (index + 1))).map { UInt8(truncatingIfNeeded: $0 &* (index + 3)) }
    }

    private func export(_ fixture: StickFixture, stop: Stop?) -> ImportReport {
        var options = PhotoExport.Options(stick: fixture.stick.path)
        options.data = fixture.data
        if let stop { options.stopRequested = { stop.pending() } }
        return PhotoExport.run(options)
    }

    private func entries(_ path: String) -> [String] {
        do throws(SystemError) { return try DirectoryDescriptor.open(path).entries().names.sorted() } catch { return ["unreadable"] }
    }

    private func content(_ path: String) -> [UInt8]? {
        do throws(SystemError) { return try WholeFile.bytes(path, limit: 1 << 20) } catch { return nil }
    }

    private func record(_ fixture: StickFixture) -> [String] {
        do throws(SystemError) {
            return try WholeFile.text(fixture.data + "/" + PhotoExport.recordName, limit: 1 << 20)
                .split(separator: "\n").map(String.init)
        } catch { return [] }
    }

    /// Each photo is asked about twice (before it, and between its write and its fsync), so a stop
    /// at ask k leaves (k - 1) / 2 photos copied: every point of the export, both kinds of check.
    @Test(arguments: 1...8)
    func aStopMidExportLeavesWholePhotosAndTheRecordOfThem(stopAt: Int) {
        let fixture = fixture()
        let report = export(fixture, stop: Stop(at: stopAt))
        let copied = (stopAt - 1) / 2
        guard case .failed(let reason) = report.outcome else {
            Issue.record("expected a runtime failure, got \(report.outcome): \(report.transcript)")
            return
        }
        #expect(report.outcome.exitStatus == 1)
        #expect(reason.contains("stopped by SIGTERM after \(copied) photo"), "\(reason)")
        #expect(reason.contains("the other \(4 - copied) \(4 - copied == 1 ? "is" : "are") copied next time"), "\(reason)")
        #expect(report.says("\(copied) photo\(copied == 1 ? "" : "s") copied"), "\(report.transcript)")
        let done = Array(Self.photos.prefix(copied))
        // Whole photos only, under their names; no temporary left behind.
        #expect(entries(fixture.path("photos")) == done)
        for (index, name) in done.enumerated() { #expect(content(fixture.path("photos/" + name)) == Self.bytes(index)) }
        #expect(record(fixture) == done)
        // The box's own photos are untouched.
        #expect(entries(fixture.data + "/photos") == Self.photos)
        for (index, name) in Self.photos.enumerated() { #expect(content(fixture.data + "/photos/" + name) == Self.bytes(index)) }

        let next = export(fixture, stop: nil)
        #expect(next.outcome == .photosCopied(4 - copied), "\(next.transcript)")
        #expect(next.skippedTexts.isEmpty, "none copied twice: \(next.transcript)")
        #expect(entries(fixture.path("photos")) == Self.photos)
        for (index, name) in Self.photos.enumerated() { #expect(content(fixture.path("photos/" + name)) == Self.bytes(index)) }
        #expect(record(fixture) == Self.photos)
    }

    @Test func withoutAStopEveryPhotoIsCopiedAndAskedAboutTwice() {
        let fixture = fixture()
        let stop = Stop(at: Int.max)
        let report = export(fixture, stop: stop)
        #expect(report.outcome == .photosCopied(4), "\(report.transcript)")
        #expect(stop.timesAsked == 8)
        #expect(record(fixture) == Self.photos)
    }
}
