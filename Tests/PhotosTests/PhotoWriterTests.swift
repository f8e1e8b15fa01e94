import CAllocCounter
import Foundation
@_spi(Testing) import Frames
import ImageCodec
import KernelIO
import Photos
import TestSupport
import Testing

/// The worker's "photo finished" signal, as the loop's eventfd would receive it.
private final class Finished: @unchecked Sendable {
    let semaphore: KernelIO.Semaphore
    let count = AtomicCounter()

    init() throws { semaphore = try KernelIO.Semaphore() }

    func signal() {
        count.increment()
        semaphore.post()
    }

    /// Waits for the worker; 20 s is a hang detector, not a speed bound.
    func wait() -> Bool { semaphore.wait(timeoutMilliseconds: 20_000) }
}

private final class AtomicCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func increment() { lock.withLock { value += 1 } }
    var current: Int { lock.withLock { value } }
}

/// A test-controlled gate the worker stops at before a rename.
private final class Gate: @unchecked Sendable {
    let reached = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var blockedName: String? = nil
    private var proceed = true
    /// Names containing this stop at the gate.
    let stopAt: String

    init(stopAt: String) { self.stopAt = stopAt }

    func check(_ name: String) -> Bool {
        guard name.contains(stopAt) else { return true }
        lock.withLock { blockedName = name }
        reached.signal()
        release.wait()
        return lock.withLock { proceed }
    }

    func open(proceeding: Bool) {
        lock.withLock { proceed = proceeding }
        release.signal()
    }
}

private func names(in directory: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
}

/// A composite like a booth's: a smooth backdrop gradient, a hard-edged saturated "person",
/// and sensor-like noise, so the JPEG has edges and texture to lose.
private func sceneFrame(_ size: FrameSize) -> PixelBuffer {
    let frame = PixelBuffer(format: .xrgb8888, size: size)
    var random: UInt32 = 12345
    for y in 0..<size.height {
        let row = frame.row(y).bindMemory(to: UInt32.self, capacity: size.width)
        for x in 0..<size.width {
            random = random &* 1_664_525 &+ 1_013_904_223
            let noise = Int(random >> 28) - 8
            let dx = x - size.width / 2, dy = y - size.height * 2 / 5
            let person = dx * dx + dy * dy < (size.height / 4) * (size.height / 4)
            var r = person ? 200 : 40 + x * 150 / size.width
            var g = person ? 60 : 90 + y * 100 / size.height
            var b = person ? 50 : 200 - x * 80 / size.width
            r = min(255, max(0, r + noise)); g = min(255, max(0, g + noise)); b = min(255, max(0, b + noise))
            row[x] = 0xFF00_0000 | UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
        }
    }
    return frame
}

/// PSNR over R, G and B of a decoded photo (RGB24 or XRGB8888) against the XRGB8888 source.
private func psnr(_ decoded: borrowing PixelBuffer, _ source: borrowing PixelBuffer) -> Double {
    var squared = 0.0
    for y in 0..<source.size.height {
        let original = source.row(y).assumingMemoryBound(to: UInt8.self)
        let got = decoded.row(y).assumingMemoryBound(to: UInt8.self)
        let step = decoded.format == .rgb24 ? 3 : 4
        for x in 0..<source.size.width {
            // Source bytes B G R X; decoded RGB24 is R G B, XRGB8888 B G R X.
            let s = (Int(original[x * 4 + 2]), Int(original[x * 4 + 1]), Int(original[x * 4]))
            let d = step == 3 ? (Int(got[x * 3]), Int(got[x * 3 + 1]), Int(got[x * 3 + 2]))
                : (Int(got[x * 4 + 2]), Int(got[x * 4 + 1]), Int(got[x * 4]))
            squared += Double((s.0 - d.0) * (s.0 - d.0) + (s.1 - d.1) * (s.1 - d.1) + (s.2 - d.2) * (s.2 - d.2))
        }
    }
    let mse = squared / Double(source.size.width * source.size.height * 3)
    return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
}

@Suite struct PhotoWriterTests {
    @Test func theJPEGDecodesBackWithin40dBOfTheFrame() throws {
        let folder = TemporaryDirectory("photo-psnr")
        let finished = try Finished()
        let size = FrameSize(width: 1280, height: 720)
        let writer = try PhotoWriter(directory: folder.path, layout: PhotoLayout(compositeSize: size),
                                     notify: { finished.signal() })
        defer { writer.stop() }
        let frame = sceneFrame(size)
        #expect(writer.capture(composite: frame.view, at: 5_000_000_000))
        #expect(writer.startEncode())
        #expect(finished.wait())
        let result = writer.takeResult()
        #expect(result == .saved(name: "photo-00000001-0000005000.jpg"))
        #expect(names(in: folder.path) == ["photo-00000001-0000005000.jpg"])
        let decoded = try ImageDecoder().decode(path: folder.file("photo-00000001-0000005000.jpg"))
        #expect(decoded.size == size)
        let quality = psnr(decoded, frame)
        #expect(quality >= 40, "PSNR \(quality) dB")
        #expect(finished.count.current == 1)
        #expect(writer.takeResult() == nil)
    }

    /// The same on a real camera picture, when the shared recordings are here.
    @Test func aRealFrameDecodesBackWithin40dB() throws {
        let path = "../shared/data/rgbd/pcl_five_people/color/000000.png"
        guard FileManager.default.fileExists(atPath: path) else {
            print("skipped: \(path) is not here")
            return
        }
        let source = try ImageDecoder().decode(path: path)
        let frame = PixelBuffer(format: .xrgb8888, size: source.size)
        for y in 0..<source.size.height {
            let from = source.row(y).assumingMemoryBound(to: UInt8.self)
            let to = frame.row(y).bindMemory(to: UInt32.self, capacity: source.size.width)
            let step = source.format == .rgb24 ? 3 : 4
            for x in 0..<source.size.width {
                to[x] = 0xFF00_0000 | UInt32(from[x * step]) << 16 | UInt32(from[x * step + 1]) << 8 | UInt32(from[x * step + 2])
            }
        }
        let folder = TemporaryDirectory("photo-real")
        let finished = try Finished()
        let writer = try PhotoWriter(directory: folder.path, layout: PhotoLayout(compositeSize: source.size),
                                     notify: { finished.signal() })
        defer { writer.stop() }
        #expect(writer.capture(composite: frame.view, at: 1))
        writer.startEncode()
        #expect(finished.wait())
        guard case .saved(let name) = writer.takeResult() else { Issue.record("not saved"); return }
        let quality = psnr(try ImageDecoder().decode(path: folder.file(name)), frame)
        #expect(quality >= 40, "PSNR \(quality) dB")
    }

    @Test func keptLayersAreWrittenLosslesslyBesideTheJPEG() throws {
        let folder = TemporaryDirectory("photo-layers")
        let finished = try Finished()
        let composite = FrameSize(width: 320, height: 180)
        let camera = FrameSize(width: 64, height: 48)
        let layout = PhotoLayout(compositeSize: composite,
                                 layers: .init(colourFormat: .rgb24, colourSize: camera, alphaSize: camera, depthSize: camera))
        let writer = try PhotoWriter(directory: folder.path, layout: layout, notify: { finished.signal() })
        defer { writer.stop() }
        let colour = PixelBuffer(format: .rgb24, size: camera)
        let alpha = PixelBuffer(format: .alpha8, size: camera)
        let depth = PixelBuffer(format: .z16, size: camera)
        for y in 0..<48 {
            let c = colour.row(y).assumingMemoryBound(to: UInt8.self)
            let a = alpha.row(y).assumingMemoryBound(to: UInt8.self)
            let d = depth.row(y).bindMemory(to: UInt16.self, capacity: 64)
            for x in 0..<64 {
                c[x * 3] = UInt8(x * 4); c[x * 3 + 1] = UInt8(y * 5); c[x * 3 + 2] = UInt8((x + y) & 0xFF)
                a[x] = x < 32 ? 255 : UInt8(x * 3)
                d[x] = UInt16(1000 + x * 37 + y * 11)
            }
        }
        let frame = sceneFrame(composite)
        #expect(writer.capture(composite: frame.view, colour: colour.view, alpha: alpha.view, depth: depth.view, at: 2_000_000))
        writer.startEncode()
        #expect(finished.wait())
        #expect(writer.takeResult() == .saved(name: "photo-00000001-0000000002.jpg"))
        #expect(names(in: folder.path) == ["photo-00000001-0000000002-alpha.png", "photo-00000001-0000000002-colour.png",
                                          "photo-00000001-0000000002-depth.png", "photo-00000001-0000000002.jpg"])
        let decoder = ImageDecoder()
        let gotColour = try decoder.decode(path: folder.file("photo-00000001-0000000002-colour.png"))
        // An 8-bit grey PNG decodes as RGB by default; ask for it as ALPHA8, as the matte is.
        let gotAlpha = PixelBuffer(format: .alpha8, size: camera)
        try decoder.decode(path: folder.file("photo-00000001-0000000002-alpha.png"), into: gotAlpha.view)
        let gotDepth = try decoder.decode(path: folder.file("photo-00000001-0000000002-depth.png"))
        var mismatches = 0
        for y in 0..<48 {
            if memcmp(gotColour.row(y), colour.row(y), 64 * 3) != 0 { mismatches += 1 }
            if memcmp(gotAlpha.row(y), alpha.row(y), 64) != 0 { mismatches += 1 }
            if memcmp(gotDepth.row(y), depth.row(y), 64 * 2) != 0 { mismatches += 1 }
        }
        #expect(gotColour.format == .rgb24 && gotDepth.format == .z16)
        #expect(mismatches == 0)
    }

    /// A display's writeback arrives after the frame's layers are gone: layers staged first go
    /// with the composite captured later, and only with that photo.
    @Test func stagedLayersGoWithTheNextCompositeOnly() throws {
        let folder = TemporaryDirectory("photo-staged")
        let finished = try Finished()
        let composite = FrameSize(width: 160, height: 90)
        let camera = FrameSize(width: 32, height: 24)
        let layout = PhotoLayout(compositeSize: composite,
                                 layers: .init(colourFormat: .rgb24, colourSize: camera, alphaSize: camera, depthSize: camera))
        let writer = try PhotoWriter(directory: folder.path, layout: layout, notify: { finished.signal() })
        defer { writer.stop() }
        let alpha = PixelBuffer(format: .alpha8, size: camera)
        let depth = PixelBuffer(format: .z16, size: camera)
        let frame = sceneFrame(composite)
        #expect(writer.stageLayers(colour: nil, alpha: alpha.view, depth: depth.view))
        #expect(writer.capture(composite: frame.view, at: 3_000_000))
        #expect(!writer.stageLayers(colour: nil, alpha: alpha.view, depth: nil), "staging refused while a photo is under way")
        writer.startEncode()
        #expect(finished.wait())
        #expect(writer.takeResult() == .saved(name: "photo-00000001-0000000003.jpg"))
        #expect(writer.capture(composite: frame.view, at: 4_000_000))
        writer.startEncode()
        #expect(finished.wait())
        #expect(writer.takeResult() == .saved(name: "photo-00000002-0000000004.jpg"))
        #expect(names(in: folder.path) == ["photo-00000001-0000000003-alpha.png", "photo-00000001-0000000003-depth.png",
                                          "photo-00000001-0000000003.jpg", "photo-00000002-0000000004.jpg"])
    }

    /// A process killed between the write and the rename: the folder as the kill leaves it
    /// (the worker held at the rename) has no file under a final name, and a writer started
    /// afterwards on the same folder (the restart) clears the temporary and names its photos
    /// after the old ones, even though the boot clock restarted lower.
    @Test func aKillMidSaveLeavesNoFinalNameAndARestartNumbersOn() throws {
        let folder = TemporaryDirectory("photo-kill")
        let size = FrameSize(width: 160, height: 90)
        let frame = sceneFrame(size)
        let finished = try Finished()
        let gate = Gate(stopAt: "photo-00000003-")
        let first = try PhotoWriter(directory: folder.path, layout: PhotoLayout(compositeSize: size),
                                    notify: { finished.signal() }, beforeRename: { gate.check($0) })
        for second in [100, 200] {
            #expect(first.capture(composite: frame.view, at: UInt64(second) * 1_000_000_000))
            first.startEncode()
            #expect(finished.wait())
            #expect(first.takeResult() != nil)
        }
        #expect(first.capture(composite: frame.view, at: 300_000_000_000))
        first.startEncode()
        #expect(gate.reached.wait(timeout: .now() + 20) == .success)
        // The moment of the kill: written, not renamed.
        #expect(names(in: folder.path) == [".photo-00000003-0000300000.jpg.partial",
                                          "photo-00000001-0000100000.jpg", "photo-00000002-0000200000.jpg"])

        // After the reboot the monotonic clock starts near zero again.
        let restarted = try PhotoWriter(directory: folder.path, layout: PhotoLayout(compositeSize: size),
                                        notify: { finished.signal() })
        defer { restarted.stop() }
        #expect(restarted.nextSequence == 3)
        #expect(!names(in: folder.path).contains { $0.hasSuffix(".partial") })
        #expect(restarted.capture(composite: frame.view, at: 7_000_000_000))
        restarted.startEncode()
        #expect(finished.wait())
        #expect(restarted.takeResult() == .saved(name: "photo-00000003-0000007000.jpg"))
        let finals = names(in: folder.path)
        #expect(finals == ["photo-00000001-0000100000.jpg", "photo-00000002-0000200000.jpg", "photo-00000003-0000007000.jpg"])
        #expect(finals.sorted() == finals)

        // The killed writer never comes back; let its thread go without renaming.
        gate.open(proceeding: false)
        #expect(finished.wait())
        #expect(first.takeResult() == .failed(reason: "abandoned before the rename"))
        first.stop()
        #expect(names(in: folder.path) == finals)
    }

    @Test func onePhotoAtATime() throws {
        let folder = TemporaryDirectory("photo-busy")
        let size = FrameSize(width: 64, height: 36)
        let frame = sceneFrame(size)
        let finished = try Finished()
        let gate = Gate(stopAt: "photo-00000001-")
        let writer = try PhotoWriter(directory: folder.path, layout: PhotoLayout(compositeSize: size),
                                     notify: { finished.signal() }, beforeRename: { gate.check($0) })
        #expect(!writer.startEncode(), "nothing captured yet")
        #expect(writer.capture(composite: frame.view, at: 1))
        #expect(!writer.capture(composite: frame.view, at: 2), "captured, not yet encoded")
        #expect(writer.startEncode())
        #expect(!writer.startEncode())
        #expect(gate.reached.wait(timeout: .now() + 20) == .success)
        #expect(!writer.capture(composite: frame.view, at: 3), "still writing")
        #expect(writer.takeResult() == nil)
        gate.open(proceeding: true)
        #expect(finished.wait())
        #expect(writer.takeResult() == .saved(name: "photo-00000001-0000000000.jpg"))
        #expect(writer.capture(composite: frame.view, at: 4), "idle again")
        writer.stop()
    }

    @Test func aWriteFailureIsReportedWithTheKernelsReason() throws {
        let folder = TemporaryDirectory("photo-fail")
        let photos = folder.file("photos")
        let size = FrameSize(width: 64, height: 36)
        let finished = try Finished()
        // The folder is made if missing...
        let writer = try PhotoWriter(directory: photos, layout: PhotoLayout(compositeSize: size), notify: { finished.signal() })
        defer { writer.stop() }
        // ...and then removed under it (an unplugged stick, a wiped partition).
        #expect(rmdir(photos) == 0)
        let frame = sceneFrame(size)
        #expect(writer.capture(composite: frame.view, at: 1))
        writer.startEncode()
        #expect(finished.wait())
        #expect(writer.takeResult() == .failed(reason: "No such file or directory"))
    }

    @Test func aFolderThatCannotBeMadeIsRefusedWithItsName() throws {
        let folder = TemporaryDirectory("photo-refused")
        _ = folder.write("file", [1])
        #expect(throws: PhotoError.self) {
            _ = try PhotoWriter(directory: folder.file("file/photos"), layout: PhotoLayout(compositeSize: FrameSize(width: 8, height: 8)),
                                notify: {})
        }
    }

    /// The loop's side of a photo (capture, hand-off, result) allocates nothing.
    @Test func theLoopsSideAllocatesNothing() throws {
        guard alloc_counter_available() == 1 else {
            print("skipped: allocations are not counted in a ThreadSanitizer build")
            return
        }
        let folder = TemporaryDirectory("photo-alloc")
        let size = FrameSize(width: 320, height: 180)
        let frame = sceneFrame(size)
        let finished = try Finished()
        let writer = try PhotoWriter(directory: folder.path, layout: PhotoLayout(compositeSize: size), notify: { finished.signal() })
        defer { writer.stop() }
        var counted: UInt64 = 0
        for round in 0..<3 {
            alloc_counter_track_this_thread(1)
            alloc_counter_start()
            let captured = writer.capture(composite: frame.view, at: UInt64(round))
            let started = writer.startEncode()
            counted += alloc_counter_stop()
            alloc_counter_track_this_thread(0)
            #expect(captured && started)
            #expect(finished.wait())
            alloc_counter_track_this_thread(1)
            alloc_counter_start()
            let result = writer.takeResult()
            counted += alloc_counter_stop()
            alloc_counter_track_this_thread(0)
            #expect(result != nil)
        }
        #expect(counted == 0)
    }
}
