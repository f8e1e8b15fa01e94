import CFaultInjector
import CKernel
import Glibc
@_spi(Testing) import Frames
import KernelIO
import Matte
import Scenes
import Sinks
import Testing
@testable import Pipeline

/// ENOMEM at start-up (CFaultInjector fails the funnel's frame-memory allocation, as
/// posix_memalign does when the memory is not there): every start-up owner of frame memory throws
/// the allocation's error, which the commands turn into a message and exit status 1 (tests/cli.sh
/// shows that with a real address-space limit); nothing traps, and the next attempt, with the
/// memory there again, builds and runs.
@Suite struct StartUpMemoryTests {
    static let size = FrameSize(width: 64, height: 48)
    static let enomem = Int32(BK_ENOMEM)

    /// Fails the allocation after `skip` good ones, once, inside a scope of its own.
    static func refusing<T>(after skip: Int32, _ body: () throws -> T) rethrows -> T {
        _ = fault_scope_begin()
        defer { fault_scope_end() }
        fault_fail(Int32(BK_CALL_ALLOC), Int32(FAULT_ANY_FD), 0, enomem, skip, 1)
        return try body()
    }

    static func outOfMemory(_ body: () throws(SystemError) -> Void) -> SystemError? {
        do throws(SystemError) { try body(); return nil } catch { return error }
    }

    @Test func aRefusedFrameBufferIsAnErrorNamingItsSize() {
        let bytes = PixelFormat.xrgb8888.byteCount(bytesPerRow: 64 * 4, height: 48)
        let error = Self.refusing(after: 0) {
            Self.outOfMemory { () throws(SystemError) in _ = try PixelBuffer(allocating: .xrgb8888, size: Self.size) }
        }
        #expect(error?.errno == .outOfMemory)
        #expect(error?.message == "allocating \(bytes) bytes of frame memory: \(Errno.outOfMemory.description)")
    }

    @Test(arguments: [0, 1, 2, 5])
    func theSyntheticCameraRefusedAnyOfItsSlotsThrows(skip: Int32) {
        let error = Self.refusing(after: skip) {
            Self.outOfMemory { () throws(SystemError) in
                _ = try SyntheticSource(seed: 1, colorFormat: .yuyv, colorSize: Self.size, depthSize: Self.size,
                                        frameLimit: nil, paced: false)
            }
        }
        #expect(error?.errno == .outOfMemory)
    }

    @Test func theSinksAndTheProcessorRefusedTheirMemoryThrow() {
        let null = Self.refusing(after: 1) {
            Self.outOfMemory { () throws(SystemError) in _ = try NullSink(outputSize: Self.size) }
        }
        #expect(null?.errno == .outOfMemory)
        let y4m = Self.refusing(after: 0) {
            Self.outOfMemory { () throws(SystemError) in
                _ = try Y4MFileSink(path: "/tmp/backdrop-test-oom-\(getpid()).y4m", outputSize: Self.size, frameRate: 30)
            }
        }
        unlink("/tmp/backdrop-test-oom-\(getpid()).y4m")
        #expect(y4m?.errno == .outOfMemory)
        let processor = Self.refusing(after: 0) {
            Self.outOfMemory { () throws(SystemError) in
                _ = try FrameProcessor(colorFormat: .yuyv, colorSize: Self.size, depthSize: Self.size, outputSize: Self.size,
                                       fit: .fill, matte: MatteParameters(), projection: nil,
                                       helperCPUMasks: [0], realtimePriority: 0)
            }
        }
        #expect(processor?.errno == .outOfMemory)
    }

    /// The synthetic scene's wall image (the camera's size in RGB, 192 MiB at 8192x8192) comes from
    /// the funnel and is its first allocation: refused, the scene and the source built on it
    /// throw ENOMEM naming the wall's bytes (it was a Swift allocation that trapped; tests/cli.sh
    /// runs the huge camera under a real address-space limit).
    @Test func theSyntheticScenesWallImageRefusedThrows() {
        let wallBytes = Self.size.pixelCount * 3
        let scene = Self.refusing(after: 0) {
            Self.outOfMemory { () throws(SystemError) in _ = try SyntheticScene.allocating(colourSize: Self.size) }
        }
        #expect(scene?.message == "allocating \(wallBytes) bytes of frame memory: \(Errno.outOfMemory.description)")
        let source = Self.refusing(after: 0) {
            Self.outOfMemory { () throws(SystemError) in
                _ = try SyntheticSource(seed: 1, colorFormat: .yuyv, colorSize: Self.size, depthSize: Self.size,
                                        frameLimit: nil, paced: false)
            }
        }
        #expect(source?.message == "allocating \(wallBytes) bytes of frame memory: \(Errno.outOfMemory.description)")
    }

    /// The Y4M sink's converted frame (Y, Cb, Cr: 1.5 bytes a pixel, 96 MiB at 8192x8192), its
    /// third allocation after the two slots, is refused: ENOMEM naming its bytes, not a trap.
    @Test func theY4MSinksConversionFrameRefusedThrows() {
        let path = "/tmp/backdrop-test-oom-planes-\(getpid()).y4m"
        defer { unlink(path) }
        let error = Self.refusing(after: 2) {
            Self.outOfMemory { () throws(SystemError) in
                _ = try Y4MFileSink(path: path, outputSize: Self.size, frameRate: 30, slots: 2)
            }
        }
        #expect(error?.message == "allocating \(Self.size.pixelCount * 3 / 2) bytes of frame memory: \(Errno.outOfMemory.description)")
    }

    /// The matte's planes and tables (MatteEngine and its parts, about 40 bytes per pixel at
    /// equal sizes, 2.7 GB at 8192x8192) were Swift allocations, which trap when the memory is not
    /// there; they come from the funnel now. Refused at each of its allocations in turn, with
    /// colour-guided edges and reprojection (every part built), the engine throws ENOMEM; then,
    /// with nothing refused, it builds and mattes.
    @Test func theMatteRefusedAtAnyOfItsAllocationsThrows() throws {
        let colour = FrameSize(width: 96, height: 72), depth = FrameSize(width: 64, height: 48)
        let pinhole = DepthProjection.Pinhole(fx: 60, fy: 60, cx: 31.5, cy: 23.5)
        let projection = DepthProjection(depth: pinhole, colour: DepthProjection.Pinhole(fx: 90, fy: 90, cx: 47.5, cy: 35.5),
                                         translationMM: SIMD3<Float>(25, 0, 0))
        func build() throws(SystemError) -> MatteEngine {
            try MatteEngine(parameters: MatteParameters(), depthSize: depth, alphaSize: colour, projection: projection)
        }
        _ = fault_scope_begin()
        _ = try build()
        let allocations = fault_calls_seen(Int32(BK_CALL_ALLOC))
        fault_scope_end()
        // The engine, its resample grid, the labeller and its runs, the floor, the segments and
        // their runs, two feathers and their grids, the colour edges with their grid and lanes,
        // the rim patch, the reprojection's ray tables.
        #expect(allocations == 16)
        for skip in 0..<allocations {
            let error = Self.refusing(after: skip) { Self.outOfMemory { () throws(SystemError) in _ = try build() } }
            #expect(error?.errno == .outOfMemory, "allocation \(skip) of \(allocations) refused")
            #expect(error?.message.hasPrefix("allocating ") == true)
        }
        let engine = try build()
        let depthFrame = PixelBuffer(format: .z16, size: depth)
        let colourFrame = PixelBuffer(format: .rgb24, size: colour)
        let alpha = PixelBuffer(format: .alpha8, size: colour)
        for y in 0..<depth.height {
            let row = depthFrame.view.row(y).assumingMemoryBound(to: UInt16.self)
            for x in 0..<depth.width { row[x] = x < depth.width / 2 ? 1200 : 2900 }
        }
        engine.process(depth: depthFrame.view, unitMM: 1, colour: colourFrame.view, into: alpha.view)
        let opaque = (0..<colour.height).reduce(0) { sum, y in
            let row = alpha.view.row(y).assumingMemoryBound(to: UInt8.self)
            return sum + (0..<colour.width).filter { row[$0] == 255 }.count
        }
        #expect(opaque > colour.pixelCount / 4, "the engine built after the refusals mattes the near half")
    }

    @Test func afterARefusedStartTheNextOneRuns() throws {
        // The third of the camera's slots is refused: the run is never built.
        let refused: SystemError? = Self.refusing(after: 2) {
            do { _ = try SyntheticNullRun(seed: 1, camera: Self.size, output: Self.size); return nil } catch { return error as? SystemError }
        }
        #expect(refused?.errno == .outOfMemory)
        #expect(fault_injected() == 0, "the scope ended with the refusal")
        let run = try SyntheticNullRun(seed: 1, camera: Self.size, output: Self.size)
        run.runner.run(frameLimit: 5)
        #expect(run.runner.presented == 5)
        run.stop()
    }
}
