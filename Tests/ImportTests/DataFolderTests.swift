import CKernel
import Import
import Settings
import TestSupport
import Testing

@Suite struct DataFolderTests {
    @Test func aTrailingSlashNamesTheSameFolder() throws {
        let box = TemporaryDirectory("box")
        let data = try DataFolder.open(box.file("data") + "/")
        #expect(data.path == box.file("data"))
        #expect(bk_is_directory(box.file("data/generations")) == 1)
    }
}

/// The very first generation, when the stick brings no config, starts from the box's own.
@Suite struct FirstGenerationTests {
    func run(_ fixture: StickFixture, baseConfig: String) -> ImportOutcome {
        var options = StickImport.Options(stick: fixture.stick.path)
        options.data = fixture.data
        options.baseConfig = baseConfig
        return StickImport.run(options).outcome
    }

    @Test func takesTheBoxsOwnConfigWithTheBoxsBackdropLines() {
        let fixture = StickFixture(backdrops: ["a.png": StickFixture.png()])
        let own = fixture.box.write("own.conf", Array("[matte]\nfar_mm = 2700\n".utf8))
        #expect(run(fixture, baseConfig: own) == .newGeneration("000001"))
        #expect(fixture.stored("[matte]\nfar_mm = 2700\n"))
    }

    /// The box's own folder is filled by no generation: kept, the first generation showed none
    /// of the backdrops it holds (issue 36). Pointed at the generation's own, as a stick's is.
    @Test func pointsAtTheGenerationsBackdropsWhenItNamesAnotherFolder() {
        let fixture = StickFixture(backdrops: ["a.png": StickFixture.png()])
        let text = "[matte]\nfar_mm = 2700\n[background]\ndirectory = /srv/backdrops\nfit = fit\n"
        let own = fixture.box.write("own.conf", Array(text.utf8))
        #expect(run(fixture, baseConfig: own) == .newGeneration("000001"))
        let stored = fixture.currentConfig() ?? ""
        #expect(stored.hasSuffix("directory = \(fixture.data)/current/backgrounds\n"), "\(stored)")
        #expect(stored.contains("\n; replaced by the box's line below (this generation's own backdrops): directory = /srv/backdrops\nfit = fit\n"))
        #expect(Settings.parse(stored, fileName: "stored").settings?.background.directory == fixture.data + "/current/backgrounds")
    }
}
