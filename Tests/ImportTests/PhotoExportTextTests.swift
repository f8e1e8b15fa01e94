import CFaultInjector
import CKernel
import Import
import KernelIO
import TestSupport
import Testing

/// The photo export's outcome for the booth's screen (`PhotoExportText`, left by the command in
/// DIR/export-outcome): each outcome in its few words, a failure from the kernel error the export
/// met (CFaultInjector at the funnel: the same write path a full, read-only or pulled stick fails).
@Suite(.serialized) struct PhotoExportTextTests {
    /// A box with `count` photos and a stick that asks for them.
    private func fixture(photos count: Int = 3) -> StickFixture {
        let fixture = StickFixture()
        #expect(bk_mkdir(fixture.data, 0o755) == 0)
        #expect(bk_mkdir(fixture.data + "/photos", 0o755) == 0)
        for index in 0..<count { _ = fixture.box.write("data/photos/p\(index + 1).jpg", [UInt8](repeating: UInt8(index), count: 64)) }
        fixture.makeFolder("photos")
        return fixture
    }

    private func export(_ fixture: StickFixture, limits: ImportLimits = .standard) -> ImportReport {
        var options = PhotoExport.Options(stick: fixture.stick.path)
        options.data = fixture.data
        options.limits = limits
        return PhotoExport.run(options)
    }

    /// The export with the `skip + 1`th write (each photo: its copy on the stick, then the record
    /// on the box, one write each) and every later one failing with `error`.
    private func export(_ fixture: StickFixture, writesFailAfter skip: Int, with error: Int32) -> ImportReport {
        _ = fault_scope_begin()
        fault_fail(Int32(BK_CALL_WRITE), Int32(FAULT_FILES), 0, error, Int32(skip), -1)
        let report = export(fixture)
        fault_scope_end()
        return report
    }

    /// What the screen would show: the text as the notice keeps it, whole.
    private func shown(_ report: ImportReport) -> String {
        let kept = ImportNotice(serial: 1, status: report.outcome.exitStatus, text: report.screenText, step: .exporting).text
        #expect(kept == report.screenText, "the notice would cut or change '\(report.screenText)'")
        return report.screenText
    }

    @Test func copiedPhotosAreCountedAndNothingNewIsSaid() {
        let box = fixture(photos: 3)
        let first = export(box)
        #expect(first.outcome == .photosCopied(3))
        #expect(shown(first) == "3 PHOTOS COPIED", "\(first.transcript)")
        #expect(shown(export(box)) == "NO NEW PHOTOS TO COPY")
        _ = box.box.write("data/photos/p4.jpg", [4])
        #expect(shown(export(box)) == "1 PHOTO COPIED")

        let untouched = StickFixture()
        #expect(bk_mkdir(untouched.data, 0o755) == 0)
        untouched.makeFolder("photos")
        let none = export(untouched)
        #expect(none.outcome == .photosCopied(0))
        #expect(shown(none) == "NO NEW PHOTOS TO COPY", "a box that has taken none yet")
    }

    @Test func aNameAlreadyOnTheStickAndThePhotoLimitAreSaid() {
        let box = fixture(photos: 3)
        box.put("photos/p1.jpg", [9])
        #expect(shown(export(box)) == "2 PHOTOS COPIED, 1 SKIPPED")

        let many = fixture(photos: 3)
        var limits = ImportLimits.standard
        limits.photos = 2
        let report = export(many, limits: limits)
        #expect(report.outcome == .photosCopied(2))
        #expect(shown(report) == "2 PHOTOS COPIED, MORE NEXT TIME", "\(report.transcript)")
    }

    @Test func aStickWithoutAPhotoFolderGetsNoText() {
        let box = StickFixture()
        #expect(bk_mkdir(box.data, 0o755) == 0)
        let report = export(box)
        #expect(report.outcome == .nothingUsable)
        #expect(report.screenText == "", "the stick did not ask for photos: the import's text stays on screen")
    }

    @Test func aFullStickKeepsThePhotosOnTheBoxAndSaysHowFarItGot() {
        let atOnce = export(fixture(photos: 3), writesFailAfter: 0, with: Int32(BK_ENOSPC))
        #expect(atOnce.outcome.exitStatus == 1)
        #expect(shown(atOnce) == "PHOTOS NOT COPIED: STICK FULL - PHOTOS KEPT ON THE BOX", "\(atOnce.transcript)")

        let box = fixture(photos: 3)
        let later = export(box, writesFailAfter: 2, with: Int32(BK_ENOSPC))
        #expect(later.outcome.exitStatus == 1)
        #expect(shown(later) == "STICK FULL: 1 PHOTO COPIED, 2 NEXT TIME", "\(later.transcript)")
        // The next stick (or this one, emptied) gets the other two.
        #expect(shown(export(box)) == "2 PHOTOS COPIED")
    }

    @Test func aReadOnlyStickIsSaid() {
        let report = export(fixture(photos: 2), writesFailAfter: 0, with: Int32(BK_EROFS))
        #expect(report.outcome.exitStatus == 1)
        #expect(shown(report) == "PHOTOS NOT COPIED: STICK IS READ-ONLY - PHOTOS KEPT ON THE BOX", "\(report.transcript)")
        #expect(report.says("the stick is mounted read-only"))
    }

    @Test func aStickPulledMidExportIsSaid() {
        let atOnce = export(fixture(photos: 3), writesFailAfter: 0, with: Int32(BK_EIO))
        #expect(shown(atOnce) == "PHOTOS NOT COPIED: STICK REMOVED OR FAILING - PHOTOS KEPT ON THE BOX", "\(atOnce.transcript)")
        let later = export(fixture(photos: 3), writesFailAfter: 4, with: Int32(BK_ENODEV))
        #expect(later.outcome.exitStatus == 1)
        #expect(shown(later) == "STICK REMOVED OR FAILING: 2 PHOTOS COPIED, 1 NEXT TIME", "\(later.transcript)")

        // Stopped by the unit (SIGTERM: the device went away) before the first photo.
        let stopped = fixture(photos: 2)
        var options = PhotoExport.Options(stick: stopped.stick.path)
        options.data = stopped.data
        options.stopRequested = { "SIGTERM" }
        #expect(shown(PhotoExport.run(options)) == "PHOTOS STOPPED: 0 COPIED, 2 NEXT TIME")
    }

    @Test func theBoxsOwnDiskFailingIsTheBoxs() {
        // The second write is the export record on the box, after the first photo's copy.
        let report = export(fixture(photos: 3), writesFailAfter: 1, with: Int32(BK_ENOSPC))
        #expect(report.outcome.exitStatus == 1)
        #expect(shown(report) == "BOX DISK FULL: 1 PHOTO COPIED, 2 NEXT TIME", "\(report.transcript)")
    }
}
