import CFaultInjector
import CKernel
import Foundation
@_spi(Testing) import Frames
import ImageCodec
import KernelIO
import Photos
import TestSupport
import Testing

/// Kernel errors on the photo writer's thread (CFaultInjector at the funnel; the writer's worker
/// is started inside the test's fault scope, so it shares it): a full or failing card costs the
/// photo being taken, with the kernel's words for the screen, and never a photo already saved.
@Suite struct PhotoWriterFaultTests {
    final class Finished: @unchecked Sendable {
        let semaphore: KernelIO.Semaphore
        init() throws { semaphore = try KernelIO.Semaphore() }
        func signal() { semaphore.post() }
        /// 20 s is a hang detector, not a speed bound.
        func wait() -> Bool { semaphore.wait(timeoutMilliseconds: 20_000) }
    }

    static let size = FrameSize(width: 96, height: 54)

    static func frame() -> PixelBuffer {
        let frame = PixelBuffer(format: .xrgb8888, size: size)
        for y in 0..<size.height {
            let row = frame.row(y).bindMemory(to: UInt32.self, capacity: size.width)
            for x in 0..<size.width { row[x] = 0xFF00_0000 | UInt32(x * 2) << 16 | UInt32(y * 4) << 8 | 0x40 }
        }
        return frame
    }

    static func names(_ path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    static func take(_ writer: PhotoWriter, _ finished: Finished, at time: UInt64) -> PhotoResult? {
        let frame = frame()
        guard writer.capture(composite: frame.view, at: time), writer.startEncode(), finished.wait() else { return nil }
        return writer.takeResult()
    }

    @Test(arguments: [(Int32(BK_ENOSPC), "No space left on device", Int32(BK_CALL_WRITE)),
                      (Int32(BK_EIO), "Input/output error", Int32(BK_CALL_WRITE)),
                      (Int32(BK_EIO), "Input/output error", Int32(BK_CALL_FSYNC))])
    func aFailingCardCostsThatPhotoOnlyWithTheKernelsWords(error: Int32, words: String, call: Int32) throws {
        let folder = TemporaryDirectory("photo-faults")
        let finished = try Finished()
        _ = fault_scope_begin()
        defer { fault_scope_end() }
        let writer = try PhotoWriter(directory: folder.path, layout: PhotoLayout(compositeSize: Self.size),
                                     notify: { finished.signal() })
        defer { writer.stop() }
        #expect(Self.take(writer, finished, at: 1_000_000) == .saved(name: "photo-00000001-0000000001.jpg"))
        let first = try WholeFile.bytes(folder.file("photo-00000001-0000000001.jpg"))

        fault_fail(call, Int32(FAULT_FILES), 0, error, 0, 1)
        #expect(Self.take(writer, finished, at: 2_000_000) == .failed(reason: words))
        #expect(fault_injected() == 1)
        #expect(Self.names(folder.path) == ["photo-00000001-0000000001.jpg"], "nothing of the failed photo, not even its temporary")
        #expect(try WholeFile.bytes(folder.file("photo-00000001-0000000001.jpg")) == first)

        // Room again: the next photo is saved, numbered after the failed one (a name is never reused).
        #expect(Self.take(writer, finished, at: 3_000_000) == .saved(name: "photo-00000003-0000000003.jpg"))
    }

    /// ENOMEM for the writer's preallocated buffers (the composite, then each kept layer): the
    /// writer is not made, with a message; no thread is left behind, and with memory it is made.
    @Test(arguments: [0, 1, 4])
    func refusedBuffersAreAMessageNotATrap(skip: Int32) throws {
        let folder = TemporaryDirectory("photo-oom")
        let finished = try Finished()
        let layout = PhotoLayout(compositeSize: Self.size,
                                 layers: PhotoLayout.Layers(colourFormat: .yuyv, colourSize: Self.size,
                                                            alphaSize: Self.size, depthSize: Self.size))
        do {
            _ = fault_scope_begin()
            defer { fault_scope_end() }
            fault_fail(Int32(BK_CALL_ALLOC), Int32(FAULT_ANY_FD), 0, Int32(BK_ENOMEM), skip, 1)
            let error = #expect(throws: PhotoError.self) {
                try PhotoWriter(directory: folder.path, layout: layout, notify: { finished.signal() })
            }
            #expect(error?.message.hasPrefix("photo buffers: allocating ") == true)
            #expect(error?.message.hasSuffix(": \(Errno.outOfMemory.description)") == true)
        }
        let writer = try PhotoWriter(directory: folder.path, layout: layout, notify: { finished.signal() })
        writer.stop()
    }

    @Test func everyCallInterruptedOnceStillSavesTheSamePhoto() throws {
        let clean = TemporaryDirectory("photo-clean")
        let interrupted = TemporaryDirectory("photo-eintr")
        let finished = try Finished()
        do {
            let writer = try PhotoWriter(directory: clean.path, layout: PhotoLayout(compositeSize: Self.size),
                                         notify: { finished.signal() })
            defer { writer.stop() }
            #expect(Self.take(writer, finished, at: 5) == .saved(name: "photo-00000001-0000000000.jpg"))
        }
        _ = fault_scope_begin()
        defer { fault_scope_end() }
        fault_interrupt_each(Int32(BK_CALL_READ | BK_CALL_WRITE | BK_CALL_WAIT | BK_CALL_IOCTL))
        let writer = try PhotoWriter(directory: interrupted.path, layout: PhotoLayout(compositeSize: Self.size),
                                     notify: { finished.signal() })
        defer { writer.stop() }
        #expect(Self.take(writer, finished, at: 5) == .saved(name: "photo-00000001-0000000000.jpg"))
        #expect(fault_injected() >= 3, "the worker's wait, the write and the fsyncs were interrupted")
        #expect(try WholeFile.bytes(interrupted.file("photo-00000001-0000000000.jpg"))
                == WholeFile.bytes(clean.file("photo-00000001-0000000000.jpg")))
        #expect(Self.names(interrupted.path) == ["photo-00000001-0000000000.jpg"])
    }
}
