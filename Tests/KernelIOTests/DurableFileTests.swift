import CKernel
import KernelIO
import TestSupport
import Testing

/// The durable write's promise: the final name holds the old content or the whole new one, and a
/// failed or abandoned write leaves no temporary behind.
@Suite struct DurableFileTests {
    static func read(_ path: String) -> [UInt8]? {
        do throws(SystemError) { return try WholeFile.bytes(path) } catch { return nil }
    }

    static func visibleNames(_ directory: String) throws -> [String] {
        try DirectoryDescriptor.open(directory).entries().names.sorted()
    }

    @Test func writesTheContentUnderTheFinalNameAndLeavesNoTemporary() throws {
        let tmp = TemporaryDirectory("durable")
        try DurableFile.write([1, 2, 3], toPath: tmp.file("a.bin"))
        #expect(Self.read(tmp.file("a.bin")) == [1, 2, 3])
        #expect(try Self.visibleNames(tmp.path) == ["a.bin"])
    }

    @Test func replacesAnOlderFileWhole() throws {
        let tmp = TemporaryDirectory("durable")
        _ = tmp.write("a.bin", [UInt8](repeating: 9, count: 5000))
        let folder = try DirectoryDescriptor.open(tmp.path)
        try DurableFile.write([7, 7], as: "a.bin", in: folder)
        #expect(Self.read(tmp.file("a.bin")) == [7, 7])
    }

    @Test func streamsSeveralWritesBeforeTheCommit() throws {
        let tmp = TemporaryDirectory("durable")
        let folder = try DirectoryDescriptor.open(tmp.path)
        let file = try DurableFile("b.bin", in: folder)
        try file.write([1])
        try file.write([2, 3])
        // Not yet visible under its name: a reader still sees nothing (or the old file).
        #expect(try folder.statusIfPresent("b.bin") == nil)
        try file.commit(in: folder)
        #expect(Self.read(tmp.file("b.bin")) == [1, 2, 3])
    }

    @Test func anAbandonedWriteKeepsTheOldFileAndRemovesItsTemporary() throws {
        let tmp = TemporaryDirectory("durable")
        _ = tmp.write("a.bin", [5])
        let folder = try DirectoryDescriptor.open(tmp.path)
        do {
            let file = try DurableFile("a.bin", in: folder)
            try file.write([1, 2, 3])
        }
        #expect(Self.read(tmp.file("a.bin")) == [5])
        #expect(try Self.visibleNames(tmp.path) == ["a.bin"])
    }

    @Test func aStaleTemporaryFromACrashIsOverwritten() throws {
        let tmp = TemporaryDirectory("durable")
        _ = tmp.write(".a.bin.partial", [UInt8](repeating: 1, count: 100))
        try DurableFile.write([4], toPath: tmp.file("a.bin"))
        #expect(Self.read(tmp.file("a.bin")) == [4])
        #expect(try Self.visibleNames(tmp.path) == ["a.bin"])
    }

    @Test(.enabled(if: SmallFilesystem.canMount, "mounting a small tmpfs needs root"))
    func aFullDiskFailsWithENOSPCAndKeepsTheOldFile() throws {
        let disk = try #require(SmallFilesystem(bytes: 64 * 1024, label: "durable-full"))
        let old = [UInt8](repeating: 3, count: 1000)
        try DurableFile.write(old, toPath: disk.path + "/a.bin")
        let big = [UInt8](repeating: 8, count: 256 * 1024)
        var failure: SystemError? = nil
        do throws(SystemError) { try DurableFile.write(big, toPath: disk.path + "/a.bin") } catch { failure = error }
        #expect(failure?.errno == Errno(Int32(BK_ENOSPC)))
        #expect(Self.read(disk.path + "/a.bin") == old)
        #expect(try Self.visibleNames(disk.path) == ["a.bin"])
    }

    @Test func switchSymlinkRepointsAtomicallyAndReplacesAStaleTemporary() throws {
        let tmp = TemporaryDirectory("switch")
        let folder = try DirectoryDescriptor.open(tmp.path)
        try folder.makeDirectory("one")
        try folder.makeDirectory("two")
        try folder.switchSymlink("current", to: "one")
        #expect(try folder.symlinkTarget("current") == "one")
        try folder.makeSymlink(".current.switch", pointingTo: "junk")
        try folder.switchSymlink("current", to: "two")
        #expect(try folder.symlinkTarget("current") == "two")
        #expect(try Self.visibleNames(tmp.path) == ["current", "one", "two"])
    }

    @Test func splitsPaths() {
        #expect(DurablePath.split("/a/b/c.conf") == ("/a/b", "c.conf"))
        #expect(DurablePath.split("/c.conf") == ("/", "c.conf"))
        #expect(DurablePath.split("c.conf") == (".", "c.conf"))
    }
}
