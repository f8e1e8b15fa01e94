import CFaultInjector
import CKernel
import Import
import KernelIO
import TestSupport
import Testing

/// The import's outcome for the booth's screen: the few words for each outcome, and the file
/// (`DIR/import-outcome`) the booth reads on SIGHUP.
@Suite struct ImportNoticeTests {
    @Test func aNewGenerationSaysWhatCameInAndWhatWasSkipped() {
        let fixture = StickFixture(config: "[matte]\nfar_mm = 2500\n",
                                   backdrops: ["a.png": StickFixture.png(seed: 1), "b.png": StickFixture.png(seed: 2),
                                               "notes.txt": Array("x".utf8), "c.png": Array("not a png".utf8)])
        let report = fixture.run()
        #expect(report.outcome == .newGeneration("000001"))
        #expect(report.screenText == "2 BACKDROPS IN, NEW CONFIG, 2 SKIPPED", "\(report.transcript)")
    }

    @Test func aRefusedConfigCountsOnceHoweverManyProblemsItHas() {
        let fixture = StickFixture(config: "[matte]\nfar_mm = 90000\nnear_mm = -4\n",
                                   backdrops: ["a.png": StickFixture.png(seed: 1)])
        let report = fixture.run()
        #expect(report.outcome == .newGeneration("000001"))
        #expect(report.skippedTexts.count >= 2, "\(report.transcript)")
        #expect(report.screenText == "1 BACKDROP IN, CONFIG REFUSED, 1 SKIPPED", "\(report.transcript)")
    }

    @Test func aConfigAloneKeepsTheBackdrops() {
        let fixture = StickFixture(config: "[matte]\nfar_mm = 2500\n", backdrops: ["a.png": StickFixture.png(seed: 1)])
        #expect(fixture.run().outcome == .newGeneration("000001"))
        fixture.remove("backgrounds")
        fixture.put("backdrop.conf", Array("[matte]\nfar_mm = 2600\n".utf8))
        let report = fixture.run()
        #expect(report.outcome == .newGeneration("000002"))
        #expect(report.screenText == "BACKDROPS KEPT, NEW CONFIG")
    }

    @Test func theSameStickAgainAndAStickWithNothingUsable() {
        let fixture = StickFixture(backdrops: ["a.png": StickFixture.png(seed: 1)])
        #expect(fixture.run().outcome == .newGeneration("000001"))
        #expect(fixture.run().screenText == "STICK: NOTHING NEW")

        let useless = StickFixture(backdrops: ["a.tif": [1, 2, 3]])
        let report = useless.run()
        #expect(report.outcome == .nothingUsable)
        #expect(report.screenText == "STICK: NOTHING USABLE, 1 SKIPPED - OLD SET KEPT")

        let empty = StickFixture()
        TemporaryDirectory.removeTree(empty.stick.file("backdrop"))
        #expect(empty.run().screenText == "STICK: NO BACKDROP FOLDER - NOTHING CHANGED")
    }

    @Test func aFullDiskIsSaidInAFewWords() {
        let fixture = StickFixture(backdrops: ["a.png": StickFixture.png(seed: 1)])
        _ = fault_scope_begin()
        fault_fail(Int32(BK_CALL_WRITE), Int32(FAULT_FILES), 0, Int32(BK_ENOSPC), 0, -1)
        let report = fixture.run()
        fault_scope_end()
        #expect(report.outcome.exitStatus == 1)
        #expect(report.screenText == "IMPORT FAILED: DISK FULL - OLD SET KEPT")
    }

    @Test func theFileCountsUpAndReadsBackAsWritten() throws {
        let box = TemporaryDirectory("notice")
        #expect(ImportNotice.read(data: box.path) == nil)
        let first = try ImportNotice.write("12 backdrops in", status: 0, data: box.path)
        #expect(first == ImportNotice(serial: 1, status: 0, text: "12 BACKDROPS IN"))
        #expect(try WholeFile.text(box.file("import-outcome"))
                == "backdrop-import-outcome 1\nserial 1\nstatus 0\ntext 12 BACKDROPS IN\n")
        let second = try ImportNotice.write("IMPORT FAILED: DISK FULL - OLD SET KEPT", status: 1, data: box.path)
        #expect(second.serial == 2 && second.failed)
        #expect(ImportNotice.read(data: box.path) == second)
        #expect(try DirectoryDescriptor.open(box.path).entries().names.sorted() == ["import-outcome"], "no temporary left")
    }

    @Test func eachStepHasItsOwnFileSoALaterStepNeverHidesAnEarlierOne() throws {
        let box = TemporaryDirectory("notice")
        let imported = try ImportNotice.write("1 backdrop in", status: 0, data: box.path)
        let exported = try ImportNotice.write("PHOTOS NOT COPIED: STICK FULL - PHOTOS KEPT ON THE BOX", status: 1, data: box.path, step: .exporting)
        let released = try ImportNotice.write(ImportNotice.removableText, status: 0, data: box.path, step: .unmounted)
        #expect(try DirectoryDescriptor.open(box.path).entries().names.sorted() == ["export-outcome", "import-outcome", "unmount-outcome"])
        #expect(ImportNotice.read(data: box.path) == imported)
        #expect(ImportNotice.read(data: box.path, step: .exporting) == exported)
        #expect(ImportNotice.read(data: box.path, step: .unmounted) == released)
        #expect(imported.serial == 1 && exported.serial == 1 && released.serial == 1)
        #expect(released.text == "YOU CAN REMOVE THE STICK")
        // Only an import that made a new generation current has the booth reload.
        #expect(imported.switchedCurrent && !exported.switchedCurrent && !released.switchedCurrent)
        #expect(!ImportNotice(serial: 2, status: 0, text: "37 PHOTOS COPIED", step: .exporting).switchedCurrent)
        #expect(!ImportNotice(serial: 2, status: 2, text: "STICK: NOTHING NEW").switchedCurrent)
    }

    @Test func theBoothTakesEachStepsNewsInOrderAndReloadsOnlyForANewGeneration() throws {
        let box = TemporaryDirectory("notice")
        _ = try ImportNotice.write("STICK: NOTHING NEW", status: 2, data: box.path)
        var seen = ImportNoticeSeen(data: box.path)
        #expect(seen.takeNew().isEmpty, "what was there when the booth started is not news")
        #expect(ImportNoticeSeen.reloads(after: []), "a SIGHUP without news (a rollback, a person) reloads")

        // One SIGHUP after all three steps: each is news once, in the unit's order.
        _ = try ImportNotice.write(ImportNotice.removableText, status: 0, data: box.path, step: .unmounted)
        _ = try ImportNotice.write("PHOTOS NOT COPIED: STICK FULL - PHOTOS KEPT ON THE BOX", status: 1, data: box.path, step: .exporting)
        _ = try ImportNotice.write("1 BACKDROP IN", status: 0, data: box.path)
        let news = seen.takeNew()
        #expect(news.map(\.text) == ["1 BACKDROP IN", "PHOTOS NOT COPIED: STICK FULL - PHOTOS KEPT ON THE BOX", "YOU CAN REMOVE THE STICK"])
        #expect(ImportNoticeSeen.reloads(after: news), "the import's new generation is taken although the export failed")
        #expect(seen.takeNew().isEmpty)

        // The export's and the unmount's outcomes alone change nothing current: no reload.
        _ = try ImportNotice.write("2 PHOTOS COPIED", status: 0, data: box.path, step: .exporting)
        let exported = seen.takeNew()
        #expect(exported.map(\.step) == [.exporting])
        #expect(!ImportNoticeSeen.reloads(after: exported))
        _ = try ImportNotice.write(ImportNotice.removableText, status: 0, data: box.path, step: .unmounted)
        #expect(!ImportNoticeSeen.reloads(after: seen.takeNew()))
        _ = try ImportNotice.write("IMPORT FAILED: DISK FULL - OLD SET KEPT", status: 1, data: box.path)
        #expect(!ImportNoticeSeen.reloads(after: seen.takeNew()))
    }

    @Test func theTextIsWhatTheMessageLayerDrawsAndAStrangeFileIsNone() throws {
        let long = String(repeating: "x", count: 200)
        #expect(ImportNotice(serial: 1, status: 2, text: long).text == String(repeating: "X", count: ImportNotice.textBytes))
        #expect(ImportNotice(serial: 1, status: 2, text: "caf\u{E9}\n\u{1B}").text == "CAF????")
        let box = TemporaryDirectory("notice")
        _ = box.write("import-outcome", Array("backdrop-import-outcome 1\nserial x\nstatus 0\ntext A\n".utf8))
        #expect(ImportNotice.read(data: box.path) == nil)
        _ = box.write("import-outcome", Array("backdrop-import-outcome 1\nserial 3\nstatus 7\ntext A\n".utf8))
        #expect(ImportNotice.read(data: box.path) == nil)
        _ = box.write("import-outcome", [0xFF, 0x00, 0x0A])
        #expect(ImportNotice.read(data: box.path) == nil)
    }

    @Test func theBoothFindsTheDataFolderFromItsConfig() {
        #expect(ImportNotice.dataFolder(forConfig: "/var/lib/backdrop/current/backdrop.conf") == "/var/lib/backdrop")
        #expect(ImportNotice.dataFolder(forConfig: "/etc/backdrop/backdrop.conf") == nil)
        #expect(ImportNotice.dataFolder(forConfig: "/current/backdrop.conf") == "/")
    }
}
