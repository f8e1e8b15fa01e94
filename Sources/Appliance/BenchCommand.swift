import CKernel
import Frames
import KernelIO
import Matte
import Pipeline
import Scenes
import Settings

/// `backdrop bench`: ns per output pixel for each stage, and memcpy of the bytes the frame path
/// reads and writes, measured in the same run so the ratio means something on a noisy machine.
enum BenchCommand {
    /// Per output pixel the frame path reads depth (2 B), YUYV colour (2 B) and the backdrop
    /// (4 B), and writes the XRGB8888 output (4 B). memcpy copies that many bytes.
    static let bytesPerPixel = 12

    static func run(_ arguments: [String]) throws(CommandFailure) {
        let options = try CommandOptions.parse(arguments, valued: ["--size", "--frames", "--backgrounds", "--depth"], flags: ["--json"])
        _ = try options.positionals(0, names: "")
        if let directory = options.value("--backgrounds") {
            let size = try options.size("--size") ?? FrameSize(width: 1920, height: 1080)
            return StandardOutput.line(try BackdropSwitchBench.run(directory: directory, size: size))
        }
        let frames = try options.integer("--frames", default: 60, range: 1...10_000)
        let sizes = try options.size("--size").map { [$0] }
            ?? [FrameSize(width: 1280, height: 720), FrameSize(width: 1920, height: 1080)]
        let allWorkers = max(1, Int(bk_online_cpus()))
        // --depth: the depth camera's size, e.g. 640x480 under a 1080p output (default: the output size).
        let depthSize = try options.size("--depth")
        for size in sizes {
            let single = try measure(size: size, frames: frames, workers: 1, depthSize: depthSize)
            let all = try measure(size: size, frames: frames, workers: allWorkers, depthSize: depthSize)
            if options.has("--json") {
                StandardOutput.line(json(size: size, single: single, all: all, workers: allWorkers))
            } else {
                StandardOutput.line(text(size: size, single: single, all: all, workers: allWorkers))
            }
        }
    }

    struct StageFigures {
        var matte: Double
        var compose: Double
        /// memcpy of the same bytes, timed in the same loop, frame by frame, so a busy machine
        /// slows both sides of the ratio alike.
        var memcpy: Double
        var pipeline: Double { matte + compose }
    }

    /// Median per-frame ns/px of each stage over `frames` frames of the synthetic scene, camera
    /// at the output size (the heaviest case: no downscale).
    private static func memory(_ byteCount: Int) throws(CommandFailure) -> AlignedBuffer {
        do throws(SystemError) { return try AlignedBuffer(byteCount: byteCount) } catch { throw .runtime(error.message) }
    }

    static func measure(size: FrameSize, frames: Int, workers: Int, depthSize: FrameSize? = nil) throws(CommandFailure) -> StageFigures {
        let depthSize = depthSize ?? size
        let scene = SyntheticScene(seed: 7, colourSize: size, depthSize: depthSize)
        let color = PixelBuffer(format: .yuyv, size: size)
        let depth = PixelBuffer(format: .z16, size: depthSize)
        let background = PixelBuffer(format: .xrgb8888, size: size)
        let output = PixelBuffer(format: .xrgb8888, size: size)
        scene.render(frame: 0, color: color.view, depth: depth.view, truth: nil)
        fillBackground(background.view)
        let assembly = PipelineAssembly(.init(), workersOverride: workers)
        let processor = try assembly.makeProcessor(colorFormat: .yuyv, colorSize: size, depthSize: depthSize, outputSize: size,
                                                   fit: .fill, matte: MatteParameters(), projection: nil)
        defer { processor.stop() }
        var matteTimes: [UInt64] = []
        var composeTimes: [UInt64] = []
        var copyTimes: [UInt64] = []
        let copyBytes = size.pixelCount * bytesPerPixel
        let copySource = try memory(copyBytes)
        let copyDestination = try memory(copyBytes)
        copySource.base.initializeMemory(as: UInt8.self, repeating: 7, count: copyBytes)
        // Two warm-up frames settle caches and the matte's temporal state.
        for frame in 0..<(frames + 2) {
            let start = MonotonicClock.nowNanoseconds()
            processor.buildMatte(depth: depth.view, unitMM: 1, colour: color.view)
            let middle = MonotonicClock.nowNanoseconds()
            processor.compose(camera: color.view, background: background.view, into: output.view)
            let end = MonotonicClock.nowNanoseconds()
            copyDestination.base.copyMemory(from: copySource.base, byteCount: copyBytes)
            let copied = MonotonicClock.nowNanoseconds()
            if frame >= 2 {
                matteTimes.append(middle - start)
                composeTimes.append(end - middle)
                copyTimes.append(copied - end)
            }
        }
        let pixels = Double(size.pixelCount)
        return StageFigures(matte: Double(median(matteTimes)) / pixels, compose: Double(median(composeTimes)) / pixels,
                            memcpy: Double(median(copyTimes)) / pixels)
    }

    static func median(_ values: [UInt64]) -> UInt64 {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }

    static func fillBackground(_ view: ImageView) {
        for row in 0..<view.size.height {
            let pixels = view.row(row).assumingMemoryBound(to: UInt32.self)
            for column in 0..<view.size.width {
                pixels[column] = 0xFF00_0000 | UInt32(row & 0xFF) << 16 | UInt32(column & 0xFF) << 8 | 0x40
            }
        }
    }

    static func json(size: FrameSize, single: StageFigures, all: StageFigures, workers: Int) -> String {
        "{\"size\": \"\(size.description)\", \"threads\": 1, "
            + "\"stages\": {\"matte\": \(decimal(single.matte)), \"compose\": \(decimal(single.compose))}, "
            + "\"pipeline_ns_per_px\": \(decimal(single.pipeline)), \"memcpy_ns_per_px\": \(decimal(single.memcpy)), "
            + "\"memcpy_bytes_per_px\": \(bytesPerPixel), "
            + "\"ratio_to_memcpy\": \(decimal(single.pipeline / single.memcpy)), "
            + "\"all_workers\": {\"threads\": \(workers), "
            + "\"stages\": {\"matte\": \(decimal(all.matte)), \"compose\": \(decimal(all.compose))}, "
            + "\"pipeline_ns_per_px\": \(decimal(all.pipeline)), \"memcpy_ns_per_px\": \(decimal(all.memcpy)), "
            + "\"ratio_to_memcpy\": \(decimal(all.pipeline / all.memcpy))}}"
    }

    static func text(size: FrameSize, single: StageFigures, all: StageFigures, workers: Int) -> String {
        "\(size.description): memcpy of \(bytesPerPixel) B/px \(decimal(single.memcpy)) ns/px\n"
            + "  1 thread:   matte \(decimal(single.matte)), compose \(decimal(single.compose)), "
            + "pipeline \(decimal(single.pipeline)) ns/px = \(decimal(single.pipeline / single.memcpy)) x memcpy\n"
            + "  \(workers) threads: matte \(decimal(all.matte)), compose \(decimal(all.compose)), "
            + "pipeline \(decimal(all.pipeline)) ns/px = \(decimal(all.pipeline / all.memcpy)) x memcpy"
    }

    /// Three decimals without Foundation's formatter (not available in Embedded Swift).
    static func decimal(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let thousandths = Int((value * 1000).rounded())
        let fraction = abs(thousandths % 1000)
        let padding = fraction < 10 ? "00" : fraction < 100 ? "0" : ""
        return "\(thousandths / 1000).\(padding)\(fraction)"
    }
}
