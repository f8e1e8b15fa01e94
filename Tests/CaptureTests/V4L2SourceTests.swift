import CFaultInjector
import CKernel
import Glibc
import Frames
import KernelIO
import Testing
@testable import Capture

extension VideoHardware {
    /// The pipeline's view of two real nodes found by `auto`; skipped without a colour+depth pair.
    @Suite struct V4L2SourceTests {
        static func configuration(_ pair: CameraSelection? = nil) -> V4L2SourceConfiguration {
            V4L2SourceConfiguration(color: pair.map { .path($0.colorPath) } ?? .auto,
                                    depth: pair.map { .path($0.depthPath) } ?? .auto,
                                    size: FrameSize(width: 640, height: 480), framesPerSecond: 30)
        }

        @Test(.enabled(if: VideoNodes.vividPair != nil, Comment(rawValue: VideoNodes.noPair)))
        func autoFindsVividsDepthNodeAndBothStreamsFlow() throws {
            let pair = try #require(VideoNodes.vividPair)
            let source = try V4L2Source(configuration: Self.configuration(pair))
            print("source: \(source.summary)")
            let depthNode = try #require(VideoNodes.devices.first { $0.path == source.selection.depthPath })
            #expect(depthNode.offersDepth)
            #expect(source.selection.colorPath != source.selection.depthPath)
            #expect(source.colorFormat == .yuyv)
            var colorStamps: [FrameStamp] = [], depthStamps: [FrameStamp] = []
            for _ in 0..<400 where colorStamps.count < 15 || depthStamps.count < 15 {
                switch source.nextEvent(timeoutNanoseconds: 100_000_000) {
                case .color(let slot, let stamp):
                    #expect(source.colorView(slot: slot).format == .yuyv)
                    colorStamps.append(stamp)
                    source.releaseColor(slot: slot)
                case .depth(let slot, let stamp):
                    let view = source.depthView(slot: slot)
                    #expect(view.format == .z16 && view.size == source.depthSize)
                    depthStamps.append(stamp)
                    source.releaseDepth(slot: slot)
                case .idle:
                    continue
                case .ended, .disconnected:
                    Issue.record("source stopped")
                    return
                }
            }
            #expect(colorStamps.count >= 15 && depthStamps.count >= 15)
            for stamps in [colorStamps, depthStamps] {
                #expect(zip(stamps, stamps.dropFirst()).allSatisfy { $0.nanoseconds < $1.nanoseconds })
            }
            #expect(source.withDescriptors { color, depth in color >= 0 && depth >= 0 && color != depth })
        }

        /// Two loopback nodes fed like a RealSense: `auto` must take the Z16-only node for depth and
        /// its sibling for colour (over vivid, which also lists Z16), and the frames must arrive intact.
        @Test(.enabled(if: LoopbackProducer.loopbackOutputs() != nil, Comment(rawValue: VideoNodes.noLoopback)))
        func loopbackNodesFedWithKnownFramesArriveIntact() throws {
            let outputs = try #require(LoopbackProducer.loopbackOutputs())
            let producer = LoopbackProducer(size: FrameSize(width: 640, height: 480))
            try producer.start(color: outputs.color, depth: outputs.depth)
            defer { producer.stop() }
            // exclusive_caps: a loopback node offers capture only once its writer has sent a frame.
            var ready = false
            for _ in 0..<100 where !ready {
                let devices = DeviceProbe.scan()
                ready = devices.contains { $0.path == outputs.depth && $0.offers(.z16) }
                    && devices.contains { $0.path == outputs.color && $0.offers(.yuyv) }
                if !ready { MonotonicClock.sleep(nanoseconds: 50_000_000) }
            }
            try #require(ready, "loopback nodes never offered capture")

            let source = try V4L2Source(configuration: Self.configuration())
            print("loopback source: \(source.summary)")
            #expect(source.selection.depthPath == outputs.depth)
            #expect(source.selection.colorPath == outputs.color)
            var colorFrames = 0, depthFrames = 0, colorStamps: [UInt64] = [], depthStamps: [UInt64] = []
            for _ in 0..<400 where colorFrames < 10 || depthFrames < 10 {
                switch source.nextEvent(timeoutNanoseconds: 100_000_000) {
                case .color(let slot, let stamp):
                    let view = source.colorView(slot: slot)
                    let bytes = view.base.assumingMemoryBound(to: UInt8.self)
                    let frame = Int(bytes[1])
                    var intact = true
                    for y in stride(from: 0, to: view.size.height, by: 53) {
                        let row = view.row(y).assumingMemoryBound(to: UInt8.self)
                        for x in stride(from: 0, to: view.size.width, by: 31)
                        where row[x * 2] != LoopbackProducer.colorByte(x: x, y: y, frame: frame) { intact = false }
                    }
                    #expect(intact, "colour frame \(frame) differs from what the producer wrote")
                    colorStamps.append(stamp.nanoseconds)
                    colorFrames += 1
                    source.releaseColor(slot: slot)
                case .depth(let slot, let stamp):
                    let view = source.depthView(slot: slot)
                    let first = Int(view.base.assumingMemoryBound(to: UInt16.self)[0])
                    let frame = (first - 500 + 3000) % 3000
                    var intact = true
                    for y in stride(from: 0, to: view.size.height, by: 47) {
                        let row = view.row(y).assumingMemoryBound(to: UInt16.self)
                        for x in stride(from: 0, to: view.size.width, by: 29)
                        where row[x] != LoopbackProducer.depthValue(x: x, y: y, frame: frame) { intact = false }
                    }
                    #expect(intact, "depth frame \(frame) differs from what the producer wrote")
                    depthStamps.append(stamp.nanoseconds)
                    depthFrames += 1
                    source.releaseDepth(slot: slot)
                case .idle:
                    continue
                case .ended, .disconnected:
                    Issue.record("source stopped")
                    return
                }
            }
            #expect(colorFrames >= 10 && depthFrames >= 10)
            for stamps in [colorStamps, depthStamps] {
                #expect(zip(stamps, stamps.dropFirst()).allSatisfy { $0 < $1 }, "timestamps not increasing")
            }
        }

        /// vivid's Disconnect control unregisters its nodes as a USB unplug does. vivid registers
        /// them again by itself once the last fd on them closes; the module reload afterwards is the
        /// acceptance scenario's "camera back".
        @Test(.enabled(if: VideoNodes.vividPair != nil && VideoNodes.faultsAllowed, Comment(rawValue: VideoNodes.noFaults)))
        func unplugTurnsDisconnectedWithoutSpinningAndReopenBringsItBack() throws {
            let source = try V4L2Source(configuration: Self.configuration(VideoNodes.vividPair))
            #expect(Self.frames(4, from: source) == 4)

            // A second open to reach the controls (the streaming queue stays with the source). It
            // stays open until the retry below, so vivid cannot come back behind the test's back.
            let depthPath = source.selection.depthPath
            let raw = bk_v4l2_open(depthPath)
            try #require(raw >= 0, "cannot open \(depthPath) a second time")
            var controlNode: FileDescriptor? = FileDescriptor(adopting: raw)
            var press = v4l2_control(id: 0x00f0_f041, value: 1)  // VIVID_CID_DISCONNECT
            let failure = controlNode!.withRawValue { V4L2Funnel.control($0, BK_VIDIOC_S_CTRL, &press) }
            #expect(failure == nil)

            #expect(Self.waitForDisconnect(source))
            #expect(!source.isConnected)
            // Still disconnected: each call waits out its time-out instead of returning at once.
            let start = MonotonicClock.nowNanoseconds()
            for _ in 0..<3 { #expect(source.nextEvent(timeoutNanoseconds: 20_000_000) == .disconnected) }
            #expect(MonotonicClock.nowNanoseconds() - start >= 60_000_000)

            // While the camera is gone, reopen fails and leaves the source closed.
            #expect(throws: CaptureError.self) { try source.reopen() }
            #expect(source.withDescriptors { color, depth in color == -1 && depth == -1 })

            // Plug it back: with every fd on vivid closed the module can be reloaded.
            controlNode = nil
            #expect(system("modprobe -r vivid") == 0)
            #expect(system("modprobe vivid n_devs=2 node_types=0x1,0x1") == 0)
            var reopened = false
            var backoff = ReopenBackoff(initialNanoseconds: 50_000_000, maximumNanoseconds: 400_000_000)
            for _ in 0..<40 where !reopened {
                let now = MonotonicClock.nowNanoseconds()
                if !backoff.isDue(now: now) {
                    MonotonicClock.sleep(nanoseconds: backoff.nextAttemptAt - now)
                    continue
                }
                do {
                    try source.reopen()
                    reopened = true
                } catch {
                    backoff.failed(now: MonotonicClock.nowNanoseconds())
                }
            }
            #expect(reopened)
            #expect(Self.frames(4, from: source) == 4)
        }

        /// ENODEV injected at the funnel on one DQBUF mid-stream (CFaultInjector), as an unplug
        /// between two frames answers: the source says `disconnected` once the stream fails and
        /// stays so, nothing is left half-open, and a reopen (the camera "back": the device was
        /// never really gone) streams again from the same nodes.
        @Test(.enabled(if: VideoNodes.vividPair != nil, Comment(rawValue: VideoNodes.noPair)))
        func anInjectedNoDeviceMidStreamDisconnectsAndReopenTakesTheCameraBack() throws {
            let source = try V4L2Source(configuration: Self.configuration(VideoNodes.vividPair))
            #expect(Self.frames(4, from: source) == 4)
            var sawDisconnect = false
            do {
                _ = fault_scope_begin()
                defer { fault_scope_end() }
                fault_fail(Int32(BK_CALL_IOCTL), Int32(FAULT_ANY_FD), BK_VIDIOC_DQBUF, Int32(BK_ENODEV), 0, 1)
                sawDisconnect = Self.waitForDisconnect(source)
                #expect(fault_injected() == 1)
            }
            #expect(sawDisconnect)
            #expect(!source.isConnected)
            #expect(source.nextEvent(timeoutNanoseconds: 20_000_000) == .disconnected, "sticky until reopened")
            try source.reopen()
            #expect(source.isConnected)
            #expect(Self.frames(4, from: source) == 4)
        }

        /// Releases frames as they come until the source says `disconnected`; false when it has
        /// not within 50 waits of 100 ms.
        static func waitForDisconnect(_ source: V4L2Source) -> Bool {
            for _ in 0..<50 {
                switch source.nextEvent(timeoutNanoseconds: 100_000_000) {
                case .color(let slot, _): source.releaseColor(slot: slot)
                case .depth(let slot, _): source.releaseDepth(slot: slot)
                case .disconnected: return true
                default: break
                }
            }
            return false
        }

        /// Takes up to `count` frames of either stream, releasing each; bounded by attempts.
        static func frames(_ count: Int, from source: V4L2Source) -> Int {
            var taken = 0
            for _ in 0..<(count * 25) where taken < count {
                switch source.nextEvent(timeoutNanoseconds: 100_000_000) {
                case .color(let slot, _): source.releaseColor(slot: slot); taken += 1
                case .depth(let slot, _): source.releaseDepth(slot: slot); taken += 1
                default: break
                }
            }
            return taken
        }
    }
}
