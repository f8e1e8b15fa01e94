import CKernel
import Compose
import Foundation
@_spi(Testing) import Frames
import KernelIO
import Runtime
import Scanout
import Testing
@testable import Capture
@testable import Pipeline

/// The camera view's zero-copy path against real drivers: vivid's capture node as the camera and
/// vkms with overlay, writeback and YUYV on the overlay plane (vboard/patches/0005, 0006;
/// tests/vboard/scanout.sh runs this on the virtual board). Skipped elsewhere.
private let vividNode: String? = DeviceProbe.scan().first { $0.driver == "vivid" && $0.offers(.yuyv) }?.path
private let device: String? = {
    guard vividNode != nil, let sink = try? KMSSink(options: KMSSinkOptions(blend: .plane)) else { return nil }
    return sink.writebackAvailable ? sink.summary : nil
}()

@Suite(.serialized, .enabled(if: device != nil, "no vivid YUYV node with a KMS display with an overlay plane and writeback here (the virtual board: tests/vboard/scanout.sh)"))
struct CameraViewDeviceTests {
    private let display = FrameSize(width: 1024, height: 768)
    /// vivid's test patterns (TPG_PAT_*): grey noise, every luma value and new in every frame (a
    /// frame shown from the wrong buffer differs everywhere); red/green 1x1 checkers, so the two
    /// pixels of a pair differ and the pair's shared chroma is what both must take.
    private static let noisePattern: Int32 = 21
    private static let colourCheckersPattern: Int32 = 14

    private struct Rig {
        let camera: V4L2Camera
        let sink: KMSSink
        let mapping: CameraMapping
    }

    /// vivid at `size` (YUYV, its buffers exported) and the display in the scaled-layer
    /// configuration for it, as the device run sets it up; the backdrop varies in both directions
    /// so a misplaced camera shows.
    private func rig(camera size: FrameSize, fit: FitMode, pattern: Int32 = noisePattern) throws -> Rig {
        let camera = try V4L2Camera(path: try #require(vividNode), request: StreamRequest(
            role: .color, size: size, format: .yuyv, framesPerSecond: 30, bufferCount: 3))
        try #require(camera.granted.format == .yuyv && camera.granted.size == size, "vivid granted \(camera.granted.summary)")
        try #require(camera.granted.dmabufExported, "vivid did not export its buffers: \(camera.summary)")
        var control = v4l2_control(id: 0x00F0_F000 /* VIVID_CID_TEST_PATTERN */, value: pattern)
        try #require(camera.withDescriptor { V4L2Funnel.control($0, BK_VIDIOC_S_CTRL, &control) } ?? nil == nil,
                     "vivid refused test pattern \(pattern)")
        let mapping = CameraMapping(camera: size, output: display, fit: fit)
        let sink = try KMSSink(options: KMSSinkOptions(mode: display, blend: .plane, writeback: true,
                                                       scaledLayer: ScaledLayer(camera: size, mapping: mapping)))
        try #require(sink.outputSize == display, "vkms did not grant \(display.description)")
        try #require(sink.scaledLayer != nil, "the display did not take the scaled layer: \(sink.planReason)")
        let backdrop = try #require(sink.backdropView)
        for y in 0..<display.height {
            let row = backdrop.row(y).assumingMemoryBound(to: UInt32.self)
            for x in 0..<display.width {
                row[x] = 0xFF00_0000 | UInt32(x * 255 / display.width) << 16 | UInt32(y * 255 / display.height) << 8 | UInt32((x ^ y) & 0xFF)
            }
        }
        return Rig(camera: camera, sink: sink, mapping: mapping)
    }

    private func adopt(_ rig: Rig) -> Bool {
        let camera = rig.camera
        return rig.sink.adoptCamera(format: camera.deliveredFormat, size: camera.granted.size,
                                    bytesPerRow: camera.granted.bytesPerRow, slotCount: camera.slotCount) { slot, use in
            _ = camera.withDMABuf(slot: slot, use)
        }
    }

    private func nextFrame(_ camera: V4L2Camera) throws -> Int {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if case .frame(let slot, _) = camera.dequeue() { return slot }
            _ = camera.withDescriptor { fd -> Int32 in
                var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                return poll(&ready, 1, 200)
            }
        }
        throw CameraViewFailure("vivid gave no frame in 10 s")
    }

    /// Waits for the queued flip; returns the index its completion names.
    private func completion(_ sink: KMSSink) throws -> Int {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if let done = sink.takeCompletion() { return done.slot }
            _ = sink.withCompletionDescriptor { fd -> Int32 in
                var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                return poll(&ready, 1, 200)
            }
        }
        throw CameraViewFailure("no page flip in 10 s")
    }

    /// What the CPU path shows for this camera frame: Backdrop's conversion, scaled by the
    /// compositor's mapping (the same nearest sample the display's plane takes), with alpha 255
    /// over the backdrop, so only the letterbox shows the backdrop.
    private func cpuFrame(_ rig: Rig, slot: Int, fit: FitMode) throws -> PixelBuffer {
        let size = rig.camera.granted.size
        let compositor = Compositor(cameraFormat: .yuyv, cameraSize: size, outputSize: display, fit: fit)
        let opaque = PixelBuffer(format: .alpha8, size: size)
        for y in 0..<size.height { opaque.view.row(y).initializeMemory(as: UInt8.self, repeating: 255, count: size.width) }
        let expected = PixelBuffer(format: .xrgb8888, size: display)
        compositor.compose(camera: rig.camera.view(slot: slot), alpha: opaque.view, background: try #require(rig.sink.backdropView),
                           into: expected.view, rows: 0..<display.height)
        return expected
    }

    /// Pixels whose RGB differs, and the first of them (the writeback's X byte is not compared).
    private func differences(_ shown: ImageView, _ expected: ImageView) -> (count: Int, first: String) {
        var count = 0, first = ""
        for y in 0..<expected.size.height {
            let a = shown.row(y).assumingMemoryBound(to: UInt32.self)
            let b = expected.row(y).assumingMemoryBound(to: UInt32.self)
            for x in 0..<expected.size.width where a[x] & 0xFF_FFFF != b[x] & 0xFF_FFFF {
                if count == 0 { first = "(\(x), \(y)): shown \(String(a[x] & 0xFF_FFFF, radix: 16)), CPU \(String(b[x] & 0xFF_FFFF, radix: 16))" }
                count += 1
            }
        }
        return (count, first)
    }

    /// vivid's 640x360 YUYV buffers, imported as framebuffers, on the overlay plane scaled to
    /// 1024x768 (fill: the source cropped; fit: the target inset): the frame the display shows
    /// (written back) is the CPU path's conversion of the same camera buffer, pixel for pixel.
    @Test(arguments: [(FitMode.fill, noisePattern), (FitMode.fit, colourCheckersPattern), (FitMode.fill, Int32(0) /* 75% colour bars */)])
    func theDisplayShowsTheCameraBufferAsTheCPUPathConvertsIt(fit: FitMode, pattern: Int32) throws {
        let size = FrameSize(width: 640, height: 360)
        let rig = try rig(camera: size, fit: fit, pattern: pattern)
        #expect(!rig.sink.showsCameraDirectly)
        #expect(adopt(rig), "\(rig.sink.cameraReason)")
        print("camera view (\(fit)): \(rig.sink.cameraReason)")
        #expect(rig.sink.showsCameraDirectly)
        let layer = try #require(rig.sink.scaledLayer)
        #expect(rig.sink.cameraReason == "camera view: zero-copy, the camera's YUYV 640x360 buffers on plane "
                + "\(rig.sink.output.overlayPlaneID!) scaled to \(layer.target.width)x\(layer.target.height)")
        try rig.camera.start()
        // A second frame, so the buffer shown is not the one the camera filled first.
        let skipped = try nextFrame(rig.camera)
        let slot = try nextFrame(rig.camera)
        rig.camera.release(slot: skipped)
        var pairs = Set<UInt32>()
        let frame = rig.camera.view(slot: slot)
        for y in 0..<size.height {
            let row = UnsafeRawPointer(frame.row(y))
            for x in stride(from: 0, to: size.width * 2, by: 4) { pairs.insert(row.loadUnaligned(fromByteOffset: x, as: UInt32.self)) }
        }
        print("camera view (\(fit), pattern \(pattern)): \(pairs.count) distinct YUYV pairs in the frame")
        #expect(pairs.count >= 4, "the camera frame is all but flat: \(pairs.count) distinct pixel pairs")
        let expected = try cpuFrame(rig, slot: slot, fit: fit)

        #expect(rig.sink.armWriteback())
        #expect(rig.sink.submitCamera(slot: slot, stamp: FrameStamp(nanoseconds: 0, sequence: 0)) == .queued)
        #expect(try completion(rig.sink) == rig.sink.directSlot(slot))
        #expect(rig.sink.queue.current == rig.sink.directSlot(slot))
        let result = rig.sink.withWriteback(timeoutMS: 10_000) { differences($0, expected.view) }
        let measured = try #require(result, "no writeback")
        print("camera view (\(fit), pattern \(pattern)): written back against the CPU path: \(measured.count) pixels differ \(measured.first)")
        #expect(measured.count == 0, "first: \(measured.first)")

        // An output slot after it takes the camera buffer off the screen: the completion says so
        // as it does for output slots, and the camera slot is the caller's again.
        let output = (0..<rig.sink.slotCount).first { rig.sink.queue.isFree($0) }!
        #expect(rig.sink.submit(slot: output, stamp: FrameStamp(nanoseconds: 0, sequence: 1)) == .queued)
        #expect(try completion(rig.sink) == output)
        #expect(rig.sink.queue.current == output)
        rig.camera.release(slot: slot)
    }

    /// The camera reopened while one of its buffers is on screen: the old camera is closed (its
    /// buffer lives on in the imported framebuffer), the new one's buffers are adopted, the old
    /// framebuffer stays until the next flip (so the plane is not taken off under it), and the new
    /// camera's frame then shows as the CPU path converts it.
    @Test func aReopenedCameraIsAdoptedWhileTheOldBufferIsOnScreen() throws {
        let size = FrameSize(width: 640, height: 360)
        var old: Rig? = try rig(camera: size, fit: .fill)
        let sink = old!.sink, mapping = old!.mapping
        let path = old!.camera.path, request = old!.camera.request
        #expect(adopt(old!), "\(sink.cameraReason)")
        try old!.camera.start()
        let first = try nextFrame(old!.camera)
        #expect(sink.submitCamera(slot: first, stamp: FrameStamp(nanoseconds: 0, sequence: 0)) == .queued)
        #expect(try completion(sink) == sink.directSlot(first))
        old = nil

        let rig = Rig(camera: try V4L2Camera(path: path, request: request), sink: sink, mapping: mapping)
        #expect(adopt(rig), "\(sink.cameraReason)")
        #expect(sink.queue.current == sink.directSlot(first), "the old camera's buffer is still the one on screen")
        try rig.camera.start()
        _ = try nextFrame(rig.camera)
        let slot = try nextFrame(rig.camera)
        let expected = try cpuFrame(rig, slot: slot, fit: .fill)
        #expect(sink.armWriteback())
        #expect(sink.submitCamera(slot: slot, stamp: FrameStamp(nanoseconds: 0, sequence: 1)) == .queued)
        #expect(try completion(sink) == sink.directSlot(slot))
        let result = sink.withWriteback(timeoutMS: 10_000) { differences($0, expected.view) }
        let measured = try #require(result, "no writeback")
        #expect(measured.count == 0, "the reopened camera's frame: \(measured.count) pixels differ, first \(measured.first)")
    }

    /// Where the display cannot take the camera's buffers, the camera view is composed, and the
    /// start-up line says why: buffers not exported, a camera of another size than the layer,
    /// the overlay plane refusing them (forced: vkms with 0006 takes YUYV).
    @Test func aRefusedCameraPathSaysWhyAndSubmitCameraRefuses() throws {
        let size = FrameSize(width: 640, height: 360)
        let rig = try rig(camera: size, fit: .fill)
        let camera = rig.camera
        let sink = rig.sink
        let prefix = "camera view: composed by the CPU: "

        #expect(!sink.adoptCamera(format: .yuyv, size: size, bytesPerRow: camera.granted.bytesPerRow,
                                  slotCount: camera.slotCount) { _, _ in })
        #expect(sink.cameraReason == prefix + "the camera's buffers were not exported (no dmabuf for slot 0)", "\(sink.cameraReason)")
        #expect(!sink.showsCameraDirectly)
        #expect(sink.submitCamera(slot: 0, stamp: FrameStamp(nanoseconds: 0, sequence: 0)) == .refused)

        #expect(!sink.adoptCamera(format: .yuyv, size: FrameSize(width: 640, height: 480), bytesPerRow: 1280,
                                  slotCount: camera.slotCount) { slot, use in _ = camera.withDMABuf(slot: slot, use) })
        #expect(sink.cameraReason == prefix + "the camera's 640x480 is not the scaled layer's 640x360", "\(sink.cameraReason)")

        #expect(adopt(rig), "\(sink.cameraReason)")
        sink.refusesCameraPlane = true
        #expect(!adopt(rig))
        #expect(sink.cameraReason == prefix + "the overlay plane refused the camera's YUYV 640x360 buffers (refused for a test)",
                "\(sink.cameraReason)")
        #expect(!sink.showsCameraDirectly, "a refusal leaves no camera adopted")
    }

    /// A display not in the scaled-layer configuration (here the CPU composes whole frames) does
    /// not take the camera's buffers, and says so.
    @Test func outsideTheScaledLayerConfigurationTheCameraViewIsComposed() throws {
        let camera = try V4L2Camera(path: try #require(vividNode), request: StreamRequest(
            role: .color, size: FrameSize(width: 640, height: 360), format: .yuyv, framesPerSecond: 30, bufferCount: 3))
        let sink = try KMSSink(options: KMSSinkOptions(mode: display, blend: .cpu, writeback: true))
        #expect(!sink.adoptCamera(format: .yuyv, size: camera.granted.size, bytesPerRow: camera.granted.bytesPerRow,
                                  slotCount: camera.slotCount) { slot, use in _ = camera.withDMABuf(slot: slot, use) })
        #expect(sink.cameraReason.hasPrefix("camera view: composed by the CPU: not the scaled layer configuration"),
                "\(sink.cameraReason)")
        #expect(sink.submitCamera(slot: 0, stamp: FrameStamp(nanoseconds: 0, sequence: 0)) == .refused)
    }

    /// The CPU time of showing a camera frame: zero-copy (submitCamera's commit) against
    /// converting it on the CPU into the camera-sized layer (Compositor.writeLayer, alpha 255) and
    /// submitting that, and against composing the whole scaled output frame. Thread CPU time
    /// (user and system) of the calls only: vkms composes the planes in a kernel worker, which a
    /// display controller does in hardware. Measured, printed, not asserted (an emulated board).
    @Test func theZeroCopyCameraViewCostsLessCPUThanConverting() throws {
        let size = FrameSize(width: 640, height: 480)
        let rig = try rig(camera: size, fit: .fill)
        #expect(adopt(rig), "\(rig.sink.cameraReason)")
        try rig.camera.start()
        let slot = try nextFrame(rig.camera)
        let sink = rig.sink
        let compositor = Compositor(cameraFormat: .yuyv, cameraSize: size, outputSize: size, fit: .fill)
        let scaling = Compositor(cameraFormat: .yuyv, cameraSize: size, outputSize: display, fit: .fill)
        let opaque = PixelBuffer(format: .alpha8, size: size)
        for y in 0..<size.height { opaque.view.row(y).initializeMemory(as: UInt8.self, repeating: 255, count: size.width) }
        let whole = PixelBuffer(format: .xrgb8888, size: display)
        // Few frames: the board runs the debug test bundle under TCG, where each whole-frame compose
        // takes seconds and twelve of them pushed scanout.sh past its time-out.
        let frames = 4
        var direct: UInt64 = 0, converted: UInt64 = 0, composed: UInt64 = 0
        for frame in 0..<frames {
            var start = threadCPUNanoseconds()
            #expect(sink.submitCamera(slot: slot, stamp: FrameStamp(nanoseconds: 0, sequence: UInt32(frame))) == .queued)
            if frame > 0 { direct += threadCPUNanoseconds() - start }
            _ = try completion(sink)

            let output = (0..<sink.slotCount).first { sink.queue.isFree($0) }!
            start = threadCPUNanoseconds()
            compositor.writeLayer(camera: rig.camera.view(slot: slot), alpha: opaque.view, into: sink.outputView(slot: output),
                                  rows: 0..<size.height, premultiplied: true)
            #expect(sink.submit(slot: output, stamp: FrameStamp(nanoseconds: 0, sequence: UInt32(frame))) == .queued)
            if frame > 0 { converted += threadCPUNanoseconds() - start }
            _ = try completion(sink)

            start = threadCPUNanoseconds()
            scaling.compose(camera: rig.camera.view(slot: slot), alpha: opaque.view, background: try #require(sink.backdropView),
                            into: whole.view, rows: 0..<display.height)
            if frame > 0 { composed += threadCPUNanoseconds() - start }
        }
        let counted = Double(frames - 1)
        let zero = Double(direct) / counted / 1e6, layer = Double(converted) / counted / 1e6, full = Double(composed) / counted / 1e6
        print("camera view CPU time per 640x480 frame (thread CPU, \(frames - 1) frames, on this machine; under TCG on the virtual board): "
              + "zero-copy submitCamera \(String(format: "%.3f", zero)) ms; converted into the camera-sized layer and submitted "
              + "\(String(format: "%.3f", layer)) ms (\(String(format: "%.0f", layer / max(zero, 1e-6)))x); "
              + "composed into the whole \(display.description) frame \(String(format: "%.3f", full)) ms "
              + "(\(String(format: "%.0f", full / max(zero, 1e-6)))x)")
        rig.camera.release(slot: slot)
    }

    private func threadCPUNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}

private struct CameraViewFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
