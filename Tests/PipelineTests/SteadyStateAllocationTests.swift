import Booth
import CAllocCounter
import Compose
import Controls
import Scenes
import Frames
import Matte
import Sinks
import Testing
@testable import Pipeline

/// The runtime model's promise: once running, the frame path allocates nothing. Counts every
/// malloc/calloc/realloc/posix_memalign from every thread over 1000 frames after warm-up.
@Suite(.serialized, .enabled(if: alloc_counter_available() != 0, "the allocation counter is compiled out under ThreadSanitizer"))
struct SteadyStateAllocationTests {
    @Test(arguments: [MatteParameters.Mode.fixed, .auto])
    func steadyStateMakesNoHeapAllocations(mode: MatteParameters.Mode) throws {
        alloc_counter_track_this_thread(1)
        defer { alloc_counter_track_this_thread(0) }
        let size = FrameSize(width: 48, height: 36)
        let output = FrameSize(width: 64, height: 48)
        var parameters = MatteParameters()
        parameters.mode = mode
        let run = try SyntheticNullRun(seed: 3, camera: size, output: output, matte: parameters)
        let runner = run.runner
        runner.run(frameLimit: 60)

        alloc_counter_start()
        runner.run(frameLimit: 1060)
        let allocations = alloc_counter_stop()
        run.stop()

        #expect(runner.pairsHandedOff == 1060)
        #expect(runner.statistics.presented >= 1059)
        #expect(allocations == 0, "the frame path allocated \(allocations) times in 1000 frames")
    }

    /// The same with depth reprojected onto colour every frame (a RealSense: a D435's calibration,
    /// rotation included), so registration's tables and scatter are proven allocation-free too.
    @Test func registrationMakesNoHeapAllocations() throws {
        alloc_counter_track_this_thread(1)
        defer { alloc_counter_track_this_thread(0) }
        let size = FrameSize(width: 48, height: 36)
        let output = FrameSize(width: 64, height: 48)
        let projection = DepthProjection(
            depth: PinholeIntrinsics(fx: 24, fy: 24, cx: 23.5, cy: 17.5),
            colour: PinholeIntrinsics(fx: 35, fy: 35, cx: 24, cy: 18),
            rotation: CameraRotation(row0: SIMD3(1, -0.0021, 0.0043), row1: SIMD3(0.0021, 1, 0.0012),
                                     row2: SIMD3(-0.0043, -0.0012, 1)),
            translationMM: SIMD3(-14.9, -0.1, -0.3))
        let run = try SyntheticNullRun(seed: 5, camera: size, output: output, projection: projection)
        let runner = run.runner
        runner.run(frameLimit: 60)

        alloc_counter_start()
        runner.run(frameLimit: 1060)
        let allocations = alloc_counter_stop()
        run.stop()

        #expect(runner.pairsHandedOff == 1060)
        #expect(allocations == 0, "the frame path allocated \(allocations) times in 1000 frames with registration on")
    }

    /// The same, with a caption on screen and then a booth countdown ticking: publishing texts
    /// from the I/O thread and drawing them in every frame allocate nothing either.
    @Test func messagesAndACountdownMakeNoHeapAllocations() throws {
        alloc_counter_track_this_thread(1)
        defer { alloc_counter_track_this_thread(0) }
        let size = FrameSize(width: 48, height: 36)
        let output = FrameSize(width: 160, height: 120)
        let run = try SyntheticNullRun(seed: 4, camera: size, output: output)
        let processor = run.processor, runner = run.runner
        var booth = BoothMachine(configuration: BoothConfiguration(countdownSeconds: 3))
        var shown = 0
        func perform(_ action: BoothAction) {
            switch action {
            case .showMessage(let message, _):
                processor.messages.publish(message.text(backdropName: "STUDIO"), style: message.isLarge ? .countdown : .caption)
                shown += 1
            case .clearMessage: processor.messages.clear()
            default: break
            }
        }
        processor.messages.publish("PHOTO SAVED")
        runner.run(frameLimit: 60)

        let start: UInt64 = 1_000_000_000
        alloc_counter_start()
        runner.run(frameLimit: 300)
        booth.handle(.button(.takePhoto), at: start) { perform($0) }
        for second in 1...2 {
            runner.run(frameLimit: 300 + 250 * second)
            booth.handle(.timer, at: start + UInt64(second) * BoothConfiguration.secondNanoseconds) { perform($0) }
        }
        runner.run(frameLimit: 1060)
        let allocations = alloc_counter_stop()
        run.stop()

        #expect(booth.state == .countdown(remaining: 1))
        #expect(shown == 3, "countdown 3, 2, 1 published")
        #expect(runner.statistics.presented == 1060)
        #expect(allocations == 0, "\(allocations) allocations with a message and a countdown over 1000 frames")
    }

    @Test func counterSeesAnAllocation() {
        // Guards the test above against a counter that never counts.
        alloc_counter_track_this_thread(1)
        defer { alloc_counter_track_this_thread(0) }
        alloc_counter_start()
        let array = [Int](repeating: 1, count: Int.random(in: 100...200))
        let allocations = alloc_counter_stop()
        #expect(array.count >= 100)
        #expect(allocations >= 1)
    }
}
