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
