import CKernel
import Import
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

    @Test func keepsTheBoxsOwnBackdropFolderWhenItNamesOne() {
        let fixture = StickFixture(backdrops: ["a.png": StickFixture.png()])
        let text = "[background]\ndirectory = /srv/backdrops\n"
        let own = fixture.box.write("own.conf", Array(text.utf8))
        #expect(run(fixture, baseConfig: own) == .newGeneration("000001"))
        #expect(fixture.currentConfig() == text)
    }
}
