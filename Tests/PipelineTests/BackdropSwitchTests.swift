@testable import Backgrounds
@_spi(Testing) import Frames
import ImageCodec
import KernelIO
import Matte
import Scenes
import Sinks
import Synchronization
import TestSupport
import Testing
@testable import Pipeline

/// A backdrop switch with the decode on the backdrop worker, as `LiveBackdrops` drives it, against
/// a decoder that finishes only when the test lets it (a slow decode without clocks): frames keep
/// being presented while a press waits for its image, the switch lands once it is decoded, and a
/// burst of presses decodes only where it ends. TSan runs this suite (the slot hand-off).
@Suite struct BackdropSwitchTests {
    static let size = FrameSize(width: 32, height: 24)

    /// Lets the worker's decodes through one at a time and records which images they were.
    final class Gate: @unchecked Sendable {
        let box: SemaphoreBox
        let started = Atomic<Int>(0)
        // Written by the worker before its result is published, read by the test after `take`.
        var decoded: [Int] = []
        init() throws { box = try SemaphoreBox() }
    }

    static func colour(_ index: Int) -> (UInt8, UInt8, UInt8) { (UInt8(20 * index), 7, 200) }
    static func pixel(_ view: ImageView) -> UInt32 { view.row(3).load(fromByteOffset: 3 * 4, as: UInt32.self) }
    static func expected(_ index: Int) -> UInt32 { 0xFF00_07C8 | UInt32(20 * index) << 16 }

    /// The loop's side of `LiveBackdrops`: results taken, switches published, the next decode started.
    final class Switching {
        let library: BackgroundLibrary
        let worker: BackdropWorker
        let runner: PipelineRunner<SyntheticSource, NullSink>
        var publishes = 0

        init(library: BackgroundLibrary, worker: BackdropWorker, runner: PipelineRunner<SyntheticSource, NullSink>) {
            self.library = library
            self.worker = worker
            self.runner = runner
        }

        func press(_ steps: Int) {
            if library.aim(steps, handedOff: runner.pairsHandedOff) { publish() }
            feed()
        }

        func iterate(_ ready: UInt64) {
            if case .filled(let fill, let problem)? = worker.take(ready),
               library.filled(fill, problem: problem, handedOff: runner.pairsHandedOff) {
                publish()
            }
            feed()
        }

        /// Runs `frames` more frames through the pipeline, serving the worker between them.
        func frames(_ frames: Int) {
            runner.run(frameLimit: runner.pairsHandedOff + frames) { ready in self.iterate(ready); return true }
        }

        /// Runs frames until `done` holds; false when it did not within `limit` frames (a hang
        /// shows as a failure, not as a test that never ends).
        func frames(until done: () -> Bool, limit: Int = 100_000) -> Bool {
            for _ in 0..<limit {
                if done() { return true }
                frames(1)
            }
            return done()
        }

        private func feed() {
            guard worker.isIdle, let fill = library.nextFill(handedOff: runner.pairsHandedOff) else { return }
            #expect(worker.start(.fill(fill)))
        }

        private func publish() {
            let view = library.current
            runner.publish { $0.backdrop = view }
            library.published(handedOff: runner.pairsHandedOff)
            publishes += 1
        }
    }

    @Test func framesGoOnWhileAPressWaitsForItsDecodeAndABurstDecodesOnlyWhereItEnds() throws {
        let directory = TemporaryDirectory("switch")
        for index in 0..<8 {
            let image = PixelBuffer(format: .rgb24, size: FrameSize(width: 8, height: 8))
            let c = Self.colour(index)
            for y in 0..<8 {
                for x in 0..<8 {
                    image.row(y).storeBytes(of: c.0, toByteOffset: 3 * x, as: UInt8.self)
                    image.row(y).storeBytes(of: c.1, toByteOffset: 3 * x + 1, as: UInt8.self)
                    image.row(y).storeBytes(of: c.2, toByteOffset: 3 * x + 2, as: UInt8.self)
                }
            }
            try PNGEncoder.write(image.view, to: directory.file("\(index).png"))
        }
        // Loaded at once (start-up): 0 shown, 1 and 7 decoded ahead.
        let (library, warnings) = try BackgroundLibrary.load(directory: directory.path, outputSize: Self.size, fit: .stretch)
        #expect(warnings.isEmpty && library.count == 8)

        let feed = try SyntheticSource(seed: 9, colorFormat: .yuyv, colorSize: Self.size, depthSize: Self.size,
                                       frameLimit: nil, paced: false)
        let processor = try FrameProcessor(colorFormat: .yuyv, colorSize: Self.size, depthSize: Self.size, outputSize: Self.size,
                                           fit: .fill, matte: MatteParameters(), projection: nil,
                                           helperCPUMasks: [], realtimePriority: 0)
        let loop = try EventLoop()
        let runner = try PipelineRunner(source: feed, sink: NullSink(outputSize: Self.size), processor: processor,
                                        pacing: .lockstep, syncToleranceNanoseconds: 16_000_000,
                                        generation: FrameGeneration(matte: MatteParameters(), backdrop: library.current),
                                        loop: loop)
        try runner.start(computeCPUMask: 0, realtimePriority: 0)
        let gate = try Gate()
        let worker = try BackdropWorker(loop: loop, cpuMask: 0) { fill, decoder in
            gate.started.add(1, ordering: .relaxed)
            gate.box.semaphore.wait()
            gate.decoded.append(fill.index)
            return fill.decode(with: decoder)
        }
        let switching = Switching(library: library, worker: worker, runner: runner)
        switching.frames(3)

        // The next one was decoded ahead: on screen from the next frame, no decode waited for.
        switching.press(1)
        #expect(library.currentIndex == 1 && switching.publishes == 1)
        #expect(Self.pixel(runner.currentGeneration.backdrop) == Self.expected(1))
        // Its own next neighbour (2) is being decoded now, held by the gate.
        #expect(switching.frames(until: { gate.started.load(ordering: .relaxed) == 1 }))

        // A burst of four presses: 2 is not decoded yet, so each only moves the target (to 5).
        for _ in 0..<4 { switching.press(1) }
        #expect(library.target == 5 && library.switchPending && library.targetName == "5.png")
        let before = runner.presented
        switching.frames(20)
        #expect(runner.presented >= before + 20, "frames stopped while the switch waited")
        #expect(library.currentIndex == 1 && Self.pixel(runner.currentGeneration.backdrop) == Self.expected(1))
        #expect(switching.publishes == 1 && gate.started.load(ordering: .relaxed) == 1)

        // 2 lands (not the target: nothing published); the target's decode follows, not 3's or 4's.
        gate.box.semaphore.post()
        #expect(switching.frames(until: { gate.started.load(ordering: .relaxed) == 2 }))
        #expect(switching.publishes == 1 && library.currentIndex == 1)
        switching.frames(5)
        #expect(library.switchPending)
        gate.box.semaphore.post()
        #expect(switching.frames(until: { !library.switchPending }))
        #expect(library.currentIndex == 5 && switching.publishes == 2)
        #expect(Self.pixel(runner.currentGeneration.backdrop) == Self.expected(5))

        // Then its neighbours, one decode each; afterwards a press either way is at once.
        gate.box.semaphore.post()
        gate.box.semaphore.post()
        #expect(switching.frames(until: { gate.started.load(ordering: .relaxed) == 4 && worker.isIdle }))
        switching.frames(3)
        #expect(gate.decoded == [2, 5, 6, 4], "decoded \(gate.decoded)")
        switching.press(1)
        #expect(library.currentIndex == 6 && Self.pixel(runner.currentGeneration.backdrop) == Self.expected(6))
        switching.press(-1)
        #expect(library.currentIndex == 5 && Self.pixel(runner.currentGeneration.backdrop) == Self.expected(5))
        #expect(library.takeProblems().isEmpty)

        // Let any decode the last presses asked for finish before the worker stops.
        for _ in 0..<4 { gate.box.semaphore.post() }
        runner.stop()
        worker.stop()
    }
}
