import CKernel
import Import
import KernelIO
import Glibc
import TestSupport
import Testing

/// Photos go to a stick that asks for them, once each, never over a file already there.
@Suite struct PhotoExportTests {
    func export(_ fixture: StickFixture) -> ImportReport {
        var options = PhotoExport.Options(stick: fixture.stick.path)
        options.data = fixture.data
        return PhotoExport.run(options)
    }

    func names(_ path: String) -> [String] {
        do throws(SystemError) { return try DirectoryDescriptor.open(path).entries().names.sorted() } catch { return [] }
    }

    @Test func copiesOnlyThePhotosTakenSinceTheLastExport() {
        let fixture = StickFixture()
        #expect(bk_mkdir(fixture.data, 0o755) == 0)
        #expect(bk_mkdir(fixture.data + "/photos", 0o755) == 0)
        _ = fixture.box.write("data/photos/p1.png", [1])
        _ = fixture.box.write("data/photos/p2.png", [2])
        // No backdrop/photos/: the stick did not ask.
        #expect(export(fixture).outcome == .nothingUsable)
        fixture.makeFolder("photos")
        let first = export(fixture)
        #expect(first.outcome == .photosCopied(2), "\(first.transcript)")
        #expect(first.says("2 photos copied"))
        #expect(names(fixture.path("photos")) == ["p1.png", "p2.png"])
        #expect(export(fixture).outcome == .photosCopied(0))
        _ = fixture.box.write("data/photos/p3.png", [3])
        fixture.remove("photos/p1.png")
        #expect(export(fixture).outcome == .photosCopied(1))
        #expect(names(fixture.path("photos")) == ["p2.png", "p3.png"])
    }

    @Test func neverOverwritesAFileOnTheStickOrFollowsALinkedPhotoFolder() {
        let fixture = StickFixture()
        #expect(bk_mkdir(fixture.data, 0o755) == 0)
        #expect(bk_mkdir(fixture.data + "/photos", 0o755) == 0)
        _ = fixture.box.write("data/photos/p1.png", [1, 1])
        fixture.makeFolder("photos")
        fixture.put("photos/p1.png", [9])
        let report = export(fixture)
        #expect(report.skippedTexts == ["photo p1.png: backdrop/photos/ already has a file of that name"])
        #expect(bk_file_size(fixture.path("photos/p1.png")) == 1)

        let outside = TemporaryDirectory("outside")
        let linked = StickFixture()
        #expect(bk_mkdir(linked.data, 0o755) == 0)
        #expect(symlink(outside.path, linked.path("photos")) == 0)
        #expect(export(linked).skippedTexts == ["backdrop/photos: a symlink, not a folder; no photos copied"])
    }
}
