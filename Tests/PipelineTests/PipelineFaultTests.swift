import CFaultInjector
import CKernel
@_spi(Testing) import Frames
import Glibc
import Matte
import Scenes
import Sinks
import Testing
@testable import Pipeline

/// The frame path under kernel errors (CFaultInjector at the funnel; the pipeline's threads are
/// started inside the test's fault scope): interrupted calls are done again without a trace in
/// the output, and a file sink on a full disk says so once and stops writing, without a crash.
@Suite struct PipelineFaultTests {
    static let size = FrameSize(width: 64, height: 48)

    static func render(to path: String, frames: Int) throws -> String? {
        let feed = try SyntheticSource(seed: 5, colorFormat: .yuyv, colorSize: size, depthSize: size, frameLimit: nil, paced: false)
        let sink = try Y4MFileSink(path: path, outputSize: size, frameRate: 30)
        let processor = try FrameProcessor(colorFormat: .yuyv, colorSize: size, depthSize: size, outputSize: size,
                                           fit: .fill, matte: MatteParameters(), projection: nil,
                                           helperCPUMasks: [0], realtimePriority: 0)
        let background = PixelBuffer(format: .xrgb8888, size: size)
        let runner = try PipelineRunner(source: feed, sink: sink, processor: processor, pacing: .lockstep,
                                        syncToleranceNanoseconds: 16_000_000,
                                        generation: FrameGeneration(matte: MatteParameters(), backdrop: background.view))
        try runner.start(computeCPUMask: 0, realtimePriority: 0)
        runner.run(frameLimit: frames)
        runner.stop()
        return runner.finishSink()
    }

    static func bytes(_ path: String) -> [UInt8] {
        guard let file = fopen(path, "rb") else { return [] }
        defer { fclose(file) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&chunk, 1, chunk.count, file)
            if n == 0 { break }
            out += chunk[..<n]
        }
        return out
    }

    static func temporaryPath(_ name: String) -> String { "/tmp/backdrop-test-\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).y4m" }

    @Test func everyReadWriteWaitAndIoctlInterruptedOnceGivesTheSameVideo() throws {
        let clean = Self.temporaryPath("y4m-clean"), interrupted = Self.temporaryPath("y4m-eintr")
        defer { unlink(clean); unlink(interrupted) }
        #expect(try Self.render(to: clean, frames: 24) == nil)
        _ = fault_scope_begin()
        defer { fault_scope_end() }
        fault_interrupt_each(Int32(BK_CALL_READ | BK_CALL_WRITE | BK_CALL_WAIT | BK_CALL_IOCTL))
        #expect(try Self.render(to: interrupted, frames: 24) == nil)
        #expect(fault_injected() >= 24 * 4, "every frame's writes were interrupted")
        let want = Self.bytes(clean)
        #expect(want.count > 24 * Self.size.pixelCount)
        #expect(Self.bytes(interrupted) == want)
    }

    @Test func aFullDiskUnderTheFileSinkIsSaidOnceAndTheRunEnds() throws {
        let path = Self.temporaryPath("y4m-full")
        defer { unlink(path) }
        _ = fault_scope_begin()
        defer { fault_scope_end() }
        // The header and the first few frames fit; then the disk is full.
        fault_fail(Int32(BK_CALL_WRITE), Int32(FAULT_FILES), 0, Int32(BK_ENOSPC), 1 + 4 * 3, -1)
        let failure = try Self.render(to: path, frames: 10)
        #expect(failure == "writing \(path) failed: write: No space left on device")
    }
}
