#if DEBUG
import CKernel
import Frames
import KernelIO
import Testing
@testable import Capture

extension VideoHardware {
    /// Faults injected at the ioctl funnel into a real stream: the paths vivid cannot be made to
    /// take on demand (EINTR mid-ioctl, ENODEV on re-queue).
    @Suite struct V4L2FunnelTests {
        static func streamingCamera() throws -> V4L2Camera {
            let node = try #require(VideoNodes.yuyvNode)
            let camera = try V4L2Camera(path: node.path, request: StreamRequest(role: .color, size: FrameSize(width: 320, height: 180)))
            try camera.start()
            return camera
        }

        /// Waits for one frame and keeps it (no release).
        static func holdOne(_ camera: V4L2Camera) -> Int? {
            for _ in 0..<50 {
                if case .frame(let slot, _) = camera.dequeue() { return slot }
                var events: Int16 = 0, unused: Int16 = 0
                _ = bk_v4l2_poll_pair(camera.withDescriptor { $0 } ?? -1, -1, Int16(BK_POLLIN), 100, &events, &unused)
            }
            return nil
        }

        @Test(.enabled(if: VideoNodes.yuyvNode != nil, Comment(rawValue: VideoNodes.noYUYV)))
        func interruptedRequestsAreRetried() throws {
            let camera = try Self.streamingCamera()
            V4L2Funnel.faults = [(BK_VIDIOC_DQBUF, .interrupted), (BK_VIDIOC_QBUF, .interrupted), (BK_VIDIOC_DQBUF, .interrupted)]
            defer { V4L2Funnel.faults = [] }
            #expect(V4L2CameraTests.take(3, from: camera) { _, _ in } == 3)
            #expect(V4L2Funnel.faults.isEmpty)
            #expect(camera.state == .streaming)
        }

        @Test(.enabled(if: VideoNodes.yuyvNode != nil, Comment(rawValue: VideoNodes.noYUYV)))
        func wouldBlockIsNothingYet() throws {
            let camera = try Self.streamingCamera()
            V4L2Funnel.faults = [(BK_VIDIOC_DQBUF, .wouldBlock)]
            defer { V4L2Funnel.faults = [] }
            #expect(camera.dequeue() == .empty)
            #expect(camera.state == .streaming)
        }

        @Test(.enabled(if: VideoNodes.yuyvNode != nil, Comment(rawValue: VideoNodes.noYUYV)))
        func noDeviceOnRequeueDisconnectsAndKeepsTheViewReadable() throws {
            let camera = try Self.streamingCamera()
            let slot = try #require(Self.holdOne(camera))
            V4L2Funnel.faults = [(BK_VIDIOC_QBUF, .noDevice)]
            defer { V4L2Funnel.faults = [] }
            camera.release(slot: slot)
            #expect(camera.state == .disconnected)
            #expect(camera.dequeue() == .disconnected)
            // The mapping outlives the unplug: a frame still on screen stays readable.
            _ = camera.view(slot: slot).base.load(as: UInt8.self)
        }

        @Test(.enabled(if: VideoNodes.vividPair != nil, Comment(rawValue: VideoNodes.noPair)))
        func sourceReportsAnUnplugOnceThenWaitsOutEachTimeout() throws {
            let pair = try #require(VideoNodes.vividPair)
            let source = try V4L2Source(configuration: V4L2SourceConfiguration(
                color: .path(pair.colorPath), depth: .path(pair.depthPath), size: FrameSize(width: 320, height: 180)))
            #expect(V4L2SourceTests.frames(2, from: source) == 2)
            V4L2Funnel.faults = [(BK_VIDIOC_DQBUF, .noDevice)]
            defer { V4L2Funnel.faults = [] }
            var event = SourceEvent.idle
            for _ in 0..<50 {
                event = source.nextEvent(timeoutNanoseconds: 100_000_000)
                if case .color(let slot, _) = event { source.releaseColor(slot: slot); continue }
                if case .depth(let slot, _) = event { source.releaseDepth(slot: slot); continue }
                if event == .disconnected { break }
            }
            #expect(event == .disconnected)
            #expect(!source.isConnected)
            // A stopped node is no longer polled, and the source answers without touching it.
            #expect(source.nextEvent(timeoutNanoseconds: 10_000_000) == .disconnected)
        }
    }
}
#endif
