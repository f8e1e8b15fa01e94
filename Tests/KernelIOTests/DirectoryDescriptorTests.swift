import CKernel
import Glibc
import KernelIO
import TestSupport
import Testing

/// Reading a tree through a folder descriptor never follows a symlink and never blocks on a fifo:
/// what the import relies on for a hostile stick.
@Suite struct DirectoryDescriptorTests {
    static func failure(_ body: () throws(SystemError) -> Void) -> Errno? {
        do throws(SystemError) { try body(); return nil } catch { return error.errno }
    }

    @Test func statusReportsKindsWithoutFollowingSymlinks() throws {
        let tmp = TemporaryDirectory("dirfd")
        _ = tmp.write("file", [1, 2, 3])
        #expect(symlink(tmp.file("file"), tmp.file("link")) == 0)
        #expect(mkfifo(tmp.file("fifo"), 0o644) == 0)
        #expect(bk_mkdir(tmp.file("sub"), 0o755) == 0)
        let folder = try DirectoryDescriptor.open(tmp.path)
        let file = try folder.status(of: "file")
        #expect(file.kind == .regular && file.size == 3)
        #expect(try folder.status(of: "link").kind == .symlink)
        #expect(try folder.status(of: "fifo").kind == .fifo)
        #expect(try folder.status(of: "sub").kind == .directory)
        #expect(try folder.statusIfPresent("absent") == nil)
    }

    @Test func opensRefuseSymlinksToFilesAndFolders() throws {
        // Links point at a decoy outside the tree, never at a real system folder: a clean-up bug
        // must not be able to reach anything that matters.
        let outside = TemporaryDirectory("dirfd-outside")
        _ = outside.write("secret", [1])
        let tmp = TemporaryDirectory("dirfd")
        #expect(symlink(outside.file("secret"), tmp.file("file-link")) == 0)
        #expect(symlink(outside.path, tmp.file("folder-link")) == 0)
        let folder = try DirectoryDescriptor.open(tmp.path)
        #expect(Self.failure { () throws(SystemError) in _ = try folder.openForReading("file-link") } == Errno(Int32(BK_ELOOP)))
        let folderError = Self.failure { () throws(SystemError) in _ = try folder.openDirectory("folder-link") }
        #expect(folderError == Errno(Int32(BK_ELOOP)) || folderError == Errno(Int32(BK_ENOTDIR)))
        #expect(Self.failure { () throws(SystemError) in _ = try DirectoryDescriptor.open(tmp.file("folder-link")) } != nil)
    }

    @Test func openingAFifoDoesNotBlockAndFstatSaysFifo() throws {
        let tmp = TemporaryDirectory("dirfd")
        #expect(mkfifo(tmp.file("fifo"), 0o644) == 0)
        let folder = try DirectoryDescriptor.open(tmp.path)
        let fifo = try folder.openForReading("fifo")
        #expect(try fifo.status().kind == .fifo)
    }

    @Test func listingCountsEntriesBeyondItsCapacity() throws {
        let tmp = TemporaryDirectory("dirfd")
        for index in 0..<50 { _ = tmp.write("file-\(index)", []) }
        let folder = try DirectoryDescriptor.open(tmp.path)
        let whole = try folder.entries()
        #expect(whole.names.count == 50 && !whole.isCutShort)
        let short = try folder.entries(capacityBytes: 64)
        #expect(short.total == 50 && short.isCutShort && short.names.count < 10)
    }

    @Test func namesThatAreNotUTF8AreKeptApart() throws {
        let tmp = TemporaryDirectory("dirfd")
        let name: [CChar] = Array((tmp.path + "/b").utf8CString.dropLast()) + [CChar(bitPattern: 0xFF)] + Array(".png".utf8CString)
        let fd = name.withUnsafeBufferPointer { bk_open_write_truncate($0.baseAddress) }
        #expect(fd >= 0)
        _ = bk_close(fd)
        _ = tmp.write("good.png", [])
        let entries = try DirectoryDescriptor.open(tmp.path).entries()
        #expect(entries.names == ["good.png"])
        #expect(entries.undecodable == ["b\u{FFFD}.png"])
    }

    @Test func removeTreeRemovesLinksNotTheirTargets() throws {
        let outside = TemporaryDirectory("dirfd-outside")
        _ = outside.write("keep", [1])
        let tmp = TemporaryDirectory("dirfd")
        #expect(bk_mkdir(tmp.file("tree"), 0o755) == 0)
        #expect(bk_mkdir(tmp.file("tree/inner"), 0o755) == 0)
        _ = tmp.write("tree/inner/f", [2])
        #expect(symlink(outside.path, tmp.file("tree/link")) == 0)
        let folder = try DirectoryDescriptor.open(tmp.path)
        try folder.removeTree("tree")
        #expect(try folder.statusIfPresent("tree") == nil)
        #expect(bk_file_size(outside.file("keep")) == 1)
    }
}
