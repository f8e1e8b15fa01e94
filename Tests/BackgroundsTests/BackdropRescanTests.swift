import Backgrounds
import Frames
import ImageCodec
import KernelIO
import TestSupport
import Testing

/// SIGHUP's folder rescan on its own thread: the library comes back through the loop's wake,
/// one rescan at a time (TSan runs this suite too: the hand-over is the only thing shared).
@Suite struct BackdropRescanTests {
    @Test func aRescanComesBackThroughTheLoopWithTheFolderAsItIsNow() throws {
        let directory = TemporaryDirectory("rescan")
        let red = BackgroundLibraryTests.solid(FrameSize(width: 64, height: 36), (255, 0, 0))
        try PNGEncoder.write(red.view, to: directory.file("a.png"))
        let loop = try EventLoop()
        let rescan = try BackdropRescan(loop: loop, cpuMask: 0)
        defer { rescan.stop() }
        let request = BackdropRescan.Request(directory: directory.path, outputSize: BackgroundLibraryTests.output, fit: .fill)
        #expect(rescan.take(0) == nil, "nothing before a rescan")
        #expect(rescan.start(request))
        #expect(!rescan.start(request), "one rescan at a time")
        var loaded = rescan.take(loop.wait())
        while loaded == nil { loaded = rescan.take(loop.wait()) }
        #expect(loaded?.library?.count == 1)
        #expect(loaded?.library?.currentName == "a.png")
        #expect(loaded?.skipped == [])

        // The folder changed (an import switched it): the next rescan sees the new content.
        try PNGEncoder.write(red.view, to: directory.file("b.png"))
        _ = directory.write("c.png", [1, 2, 3])
        #expect(rescan.start(request))
        loaded = rescan.take(loop.wait())
        while loaded == nil { loaded = rescan.take(loop.wait()) }
        #expect(loaded?.library?.count == 2)
        #expect(loaded?.skipped.count == 1)
    }

    @Test func aFolderWithNothingUsableComesBackAsTheBuiltInWithANotice() throws {
        let directory = TemporaryDirectory("rescan-empty")
        let loop = try EventLoop()
        let rescan = try BackdropRescan(loop: loop, cpuMask: 0)
        defer { rescan.stop() }
        #expect(rescan.start(BackdropRescan.Request(directory: directory.path, outputSize: BackgroundLibraryTests.output, fit: .fill)))
        var loaded = rescan.take(loop.wait())
        while loaded == nil { loaded = rescan.take(loop.wait()) }
        #expect(loaded?.library?.usesBuiltInDefault == true)
        #expect(loaded?.notices.count == 1)
    }
}
