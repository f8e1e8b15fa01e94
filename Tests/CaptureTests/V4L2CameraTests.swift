import CKernel
import CTurboJPEG
import Frames
import KernelIO
import Testing
@testable import Capture

extension VideoHardware {
    /// Against a real driver (vivid on the virtual board); skipped where there is no such node.
    @Suite struct V4L2CameraTests {
        /// Waits for and takes up to `count` frames, releasing each after `inspect`.
        static func take(_ count: Int, from camera: V4L2Camera, inspect: (Int, FrameStamp) -> Void) -> Int {
            var taken = 0
            // Bounded by attempts, not by elapsed time: each wait is at most 100 ms.
            for _ in 0..<(count * 40) where taken < count {
                switch camera.dequeue() {
                case .frame(let slot, let stamp):
                    inspect(slot, stamp)
                    camera.release(slot: slot)
                    taken += 1
                case .empty:
                    var events: Int16 = 0, unused: Int16 = 0
                    let fd = camera.withDescriptor { $0 } ?? -1
                    _ = bk_v4l2_poll_pair(fd, -1, Int16(BK_POLLIN), 100, &events, &unused)
                case .disconnected, .failed:
                    return taken
                }
            }
            return taken
        }

        @Test(.enabled(if: VideoNodes.yuyvNode != nil, Comment(rawValue: VideoNodes.noYUYV)))
        func streamsThirtyFramesWithMonotonicKernelTimestamps() throws {
            let node = try #require(VideoNodes.yuyvNode)
            let camera = try V4L2Camera(path: node.path, request: StreamRequest(
                role: .color, size: FrameSize(width: 640, height: 480), format: .yuyv, framesPerSecond: 30))
            #expect(camera.granted.format == .yuyv)
            #expect(camera.slotCount >= 2)
            let before = MonotonicClock.nowNanoseconds()
            try camera.start()
            #expect(camera.state == .streaming)
            var stamps: [FrameStamp] = []
            var distinctBytes = Set<UInt8>()
            let taken = Self.take(30, from: camera) { slot, stamp in
                stamps.append(stamp)
                let view = camera.view(slot: slot)
                #expect(view.format == .yuyv && view.size == camera.granted.size)
                let row = view.row(view.size.height / 2).assumingMemoryBound(to: UInt8.self)
                for x in stride(from: 0, to: view.size.width * 2, by: 37) { distinctBytes.insert(row[x]) }
            }
            let after = MonotonicClock.nowNanoseconds()
            #expect(taken == 30)
            #expect(camera.statistics.kernelTimestamps, "driver did not flag CLOCK_MONOTONIC timestamps")
            for index in 1..<stamps.count {
                #expect(stamps[index].nanoseconds > stamps[index - 1].nanoseconds)
                #expect(stamps[index].sequence > stamps[index - 1].sequence)
            }
            // Same clock as ours (CLOCK_REALTIME would be decades away): no stamp precedes the start
            // call, and none is more than a few seconds past the last dequeue. vivid stamps the end
            // of the frame period, which may lie slightly after the buffer was handed over.
            let latest = stamps.map(\.nanoseconds).max() ?? 0
            #expect(stamps.allSatisfy { $0.nanoseconds >= before })
            #expect(latest < after + 5_000_000_000, "latest stamp \(latest) vs dequeue done at \(after)")
            #expect(camera.statistics.nonMonotonicStamps == 0)
            // vivid draws colour bars: a real picture, not a zeroed buffer.
            #expect(distinctBytes.count > 4)
            camera.stop()
            #expect(camera.state == .stopped)
        }

        @Test(.enabled(if: VideoNodes.yuyvNode != nil, Comment(rawValue: VideoNodes.noYUYV)))
        func reportsWhatTheDriverGrantedNotWhatWasAsked() throws {
            let node = try #require(VideoNodes.yuyvNode)
            let asked = FrameSize(width: 650, height: 490)
            let camera = try V4L2Camera(path: node.path, request: StreamRequest(role: .color, size: asked, format: .yuyv,
                                                                               framesPerSecond: 1000, bufferCount: 3))
            let granted = camera.granted
            #expect(granted.size.width % 2 == 0)
            #expect(granted.bytesPerRow >= granted.size.width * 2)
            #expect(granted.imageBytes >= granted.bytesPerRow * granted.size.height)
            #expect(camera.summary.contains(granted.size.description))
            #expect(camera.summary.contains(node.path))
            if let fps = granted.framesPerSecond { #expect(fps < 1000) }
            print("granted: \(camera.summary)")
        }

        /// vivid's error-injection controls: "Percentage of Dropped Buffers" skips frames (holes in the
        /// sequence) and "Inject V4L2_BUF_FLAG_ERROR" marks the next buffer corrupt.
        @Test(.enabled(if: VideoNodes.vividNode != nil, Comment(rawValue: VideoNodes.noVivid)))
        func driverDropsCountAsGapsAndCorruptBuffersAreNeverHandedOut() throws {
            let node = try #require(VideoNodes.vividNode)
            let camera = try V4L2Camera(path: node.path, request: StreamRequest(role: .color, size: FrameSize(width: 320, height: 180)))
            func set(_ id: UInt32, _ value: Int32) -> Errno? {
                var control = v4l2_control(id: id, value: value)
                return camera.withDescriptor { V4L2Funnel.control($0, BK_VIDIOC_S_CTRL, &control) } ?? nil
            }
            #expect(set(0x00f0_f040, 50) == nil)  // VIVID_CID_PERC_DROPPED
            try camera.start()
            #expect(Self.take(20, from: camera) { _, _ in } == 20)
            #expect(camera.statistics.sequenceGaps > 0)
            #expect(set(0x00f0_f040, 0) == nil)

            let handedOut = camera.statistics.frames
            #expect(set(0x00f0_f042, 1) == nil)  // VIVID_CID_DQBUF_ERROR (a button)
            #expect(Self.take(5, from: camera) { _, _ in } == 5)
            #expect(camera.statistics.badFrames >= 1)
            #expect(camera.statistics.frames == handedOut + 5)
            camera.stop()
        }

        /// MJPEG through a real driver: a loopback node carries JPEG frames made here, and the camera
        /// hands out their decoded YUYV.
        @Test(.enabled(if: LoopbackProducer.mjpegOutput() != nil, Comment(rawValue: VideoNodes.noMJPEGLoopback)))
        func mjpegFromALoopbackNodeArrivesDecoded() throws {
            let output = try #require(LoopbackProducer.mjpegOutput())
            let image = TestJPEG.stripeImage(height: 48)
            let size = FrameSize(width: image.width, height: 48)
            let jpeg = TestJPEG.encode(image.pixels, width: image.width, height: 48, subsampling: TJSAMP_422)
            let producer = LoopbackProducer(size: size, jpeg: jpeg)
            try producer.start(color: output, depth: nil)
            defer { producer.stop() }
            var offered = false
            for _ in 0..<100 where !offered {
                offered = (try? DeviceProbe.describe(path: output))?.offers(.mjpeg) ?? false
                if !offered { MonotonicClock.sleep(nanoseconds: 50_000_000) }
            }
            try #require(offered, "loopback colour node never offered MJPEG capture")
            let camera = try V4L2Camera(path: output, request: StreamRequest(role: .color, size: size, format: .mjpeg))
            #expect(camera.granted.format == .mjpeg)
            #expect(camera.deliveredFormat == .yuyv)
            #expect(camera.summary.contains("decoded to YUYV"))
            try camera.start()
            var checked = 0
            let taken = Self.take(5, from: camera) { slot, _ in
                let view = camera.view(slot: slot)
                let row = view.row(24).assumingMemoryBound(to: UInt8.self)
                for (index, colour) in TestJPEG.stripes.enumerated() {
                    let expected = TestJPEG.limitedYCbCr(colour)
                    let pair = row + (16 * index + 8) / 2 * 4
                    #expect(abs(Double(pair[0]) - expected.y) <= 4 && abs(Double(pair[1]) - expected.cb) <= 4,
                            "stripe \(index): Y \(pair[0]) Cb \(pair[1])")
                }
                checked += 1
            }
            #expect(taken == 5 && checked == 5)
            #expect(camera.statistics.badFrames == 0)
        }

        /// A colour camera offering none of YUYV, NV12 or MJPEG: a loopback node carries UYVY made
        /// here (grey: neutral chroma), `auto` falls back to libv4lconvert, says so in the summary,
        /// and hands out RGB24 whose three channels equal the luma written (its YUV to RGB is
        /// full range, so neutral chroma leaves Y unchanged).
        @Test(.enabled(if: LoopbackProducer.uyvyOutput() != nil, Comment(rawValue: VideoNodes.noUYVYLoopback)))
        func uyvyFromALoopbackNodeArrivesConvertedToRGB() throws {
            let output = try #require(LoopbackProducer.uyvyOutput())
            let size = FrameSize(width: 64, height: 48)
            var frame = [UInt8](repeating: 128, count: size.pixelCount * 2)
            for y in 0..<size.height {
                for x in 0..<size.width { frame[(y * size.width + x) * 2 + 1] = Self.grey(x: x, y: y) }
            }
            let producer = LoopbackProducer(size: size, fixed: fourCC("UYVY"), frame: frame)
            try producer.start(color: output, depth: nil)
            defer { producer.stop() }
            var device: DeviceDescription?
            for _ in 0..<100 where device?.formats.isEmpty ?? true {
                device = try? DeviceProbe.describe(path: output)
                if device?.formats.isEmpty ?? true { MonotonicClock.sleep(nanoseconds: 50_000_000) }
            }
            let node = try #require(device, "loopback UYVY node never offered capture")
            try #require(node.offersConvertibleColor, "\(node.summary)")
            let camera = try V4L2Camera(path: output, request: StreamRequest(role: .color, size: size))
            #expect(camera.granted.format == .converted)
            #expect(camera.granted.size == size)
            #expect(camera.deliveredFormat == .rgb24)
            #expect(camera.summary.contains("UYVY converted to RGB24 by libv4lconvert"))
            try camera.start()
            var mismatches = 0, checked = 0
            let taken = Self.take(5, from: camera) { slot, _ in
                let view = camera.view(slot: slot)
                for y in 0..<size.height {
                    let row = view.row(y).assumingMemoryBound(to: UInt8.self)
                    for x in 0..<size.width {
                        let grey = Self.grey(x: x, y: y)
                        if row[3 * x] != grey || row[3 * x + 1] != grey || row[3 * x + 2] != grey { mismatches += 1 }
                    }
                }
                checked += 1
            }
            #expect(taken == 5 && checked == 5)
            #expect(mismatches == 0)
            #expect(camera.statistics.badFrames == 0)
        }

        private static func grey(x: Int, y: Int) -> UInt8 { UInt8(truncatingIfNeeded: 16 + 3 * x + y) }

        @Test(.enabled(if: VideoNodes.depthNode != nil, Comment(rawValue: VideoNodes.noDepth)))
        func depthNodeDeliversSixteenBitFrames() throws {
            let node = try #require(VideoNodes.depthNode)
            let camera = try V4L2Camera(path: node.path, request: StreamRequest(role: .depth, size: FrameSize(width: 640, height: 480)))
            #expect(camera.granted.format == (node.offers(.z16) ? .z16 : .y16))
            #expect(camera.deliveredFormat == .z16)
            try camera.start()
            var formats: [PixelFormat] = []
            let taken = Self.take(5, from: camera) { slot, _ in formats.append(camera.view(slot: slot).format) }
            #expect(taken == 5)
            #expect(formats.allSatisfy { $0 == .z16 })
        }

        @Test(.enabled(if: VideoNodes.yuyvNode != nil, Comment(rawValue: VideoNodes.noYUYV)))
        func releasingASlotNotHeldChangesNothing() throws {
            let node = try #require(VideoNodes.yuyvNode)
            let camera = try V4L2Camera(path: node.path, request: StreamRequest(role: .color, size: FrameSize(width: 320, height: 180)))
            try camera.start()
            let queued = camera.queuedCount
            camera.release(slot: 0)
            camera.release(slot: 99)
            camera.release(slot: -1)
            #expect(camera.queuedCount == queued)
            #expect(camera.state == .streaming)
        }
    }
}
