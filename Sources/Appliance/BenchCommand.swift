import CKernel
import Frames
import KernelIO
import Looks
import Matte
import Pipeline
import Runtime
import Scenes
import Settings

/// `backdrop bench`: ns per output pixel for each stage of each case a box runs (a camera smaller
/// than the TV, or equal to it; the CPU blend or the overlay layer; one worker and all), and
/// memcpy of the bytes that case must move (see `BenchCase`), measured in the same run, frame by
/// frame, so the ratio means something on a noisy machine.
enum BenchCommand {
    static func run(_ arguments: [String]) throws(CommandFailure) {
        let options = try CommandOptions.parse(arguments, valued: ["--size", "--camera", "--frames", "--backgrounds", "--depth", "--mode", "--fit", "--look"],
                                               flags: ["--json", "--registered"])
        _ = try options.positionals(0, names: "")
        if let directory = options.value("--backgrounds") {
            let size = try options.size("--size") ?? FrameSize(width: 1920, height: 1080)
            return StandardOutput.line(try BackdropSwitchBench.run(directory: directory, size: size))
        }
        let frames = try options.integer("--frames", default: 60, range: 1...10_000)
        let cases = try selectCases(options)
        let allWorkers = max(1, Int(bk_online_cpus()))
        var summary: [String] = []
        var look: PreparedLook? = nil
        if let name = options.value("--look") { look = try LookChoice.resolve(name, directory: Settings.defaults.looks.directory) }
        for benchCase in cases {
            let single = try measure(benchCase, frames: frames, workers: 1, look: look?.peopleColour)
            let all = try measure(benchCase, frames: frames, workers: allWorkers, look: look?.peopleColour)
            if options.has("--json") {
                StandardOutput.line(json(benchCase, single: single, all: all, workers: allWorkers))
            } else {
                StandardOutput.line(text(benchCase, single: single, all: all, workers: allWorkers))
                summary.append("  \(benchCase.title): " + framesPerSecond(benchCase, all))
            }
        }
        // The one figure a reader wants from all the above: how many frames a second each case
        // manages. On this machine: the board's own rate is counted under emulation (make
        // bench-arm64-count), not timed here.
        if !summary.isEmpty {
            StandardOutput.line("summary, frames per second on this machine with \(allWorkers) worker"
                                + (allWorkers == 1 ? "" : "s") + " (matte + compose; the board: make bench-arm64-count):\n"
                                + summary.joined(separator: "\n"))
        }
    }

    static func framesPerSecond(_ benchCase: BenchCase, _ figures: StageFigures) -> String {
        let nanoseconds = figures.pipeline * Double(benchCase.output.pixelCount)
        guard nanoseconds > 0 else { return "not measured" }
        let tenths = Int(1e10 / nanoseconds + 0.5)
        return "\(tenths / 10).\(tenths % 10) fps"
    }

    /// Without options: the box cameras under a 1920x1080 output, 1920x1080 and 1280x720 at equal
    /// sizes, each in both modes. --size picks the output (the box cameras under it and the equal
    /// case), --camera one camera, --depth the depth size (default: the camera's), --mode one mode.
    static func selectCases(_ options: CommandOptions) throws(CommandFailure) -> [BenchCase] {
        let modes: [BenchCase.Mode]
        switch options.value("--mode") {
        case nil: modes = [.frame, .layer, .scaledLayer]
        case "frame": modes = [.frame]
        case "layer": modes = [.layer]
        case "scaled-layer": modes = [.scaledLayer]
        case let other?:
            throw .invalidInput("--mode \(other): expected frame (the CPU blend), layer (the overlay plane's camera layer) "
                                + "or scaled-layer (the camera-sized layer a scaling display plane takes)")
        }
        let size = try options.size("--size")
        let camera = try options.size("--camera")
        let depth = try options.size("--depth")
        var fit = FitMode.fill
        if let name = options.value("--fit") {
            guard let named = FitMode.named(name) else { throw .invalidInput("--fit \(name): expected fill, fit or stretch") }
            fit = named
        }
        var pairs: [(camera: FrameSize, output: FrameSize)] = []
        if let camera {
            pairs = [(camera, size ?? FrameSize(width: 1920, height: 1080))]
        } else if let size {
            pairs = BenchCase.cameras(under: size).map { ($0, size) }
        } else {
            let fullHD = FrameSize(width: 1920, height: 1080)
            let hd = FrameSize(width: 1280, height: 720)
            pairs = BenchCase.cameras(under: fullHD).map { ($0, fullHD) } + [(hd, hd)]
        }
        var cases: [BenchCase] = []
        for pair in pairs {
            // At equal sizes there is nothing for the display to scale.
            for mode in modes where mode != .scaledLayer || pair.camera != pair.output {
                cases.append(BenchCase(camera: pair.camera, depth: depth ?? pair.camera, output: pair.output, mode: mode, fit: fit,
                                       registered: options.has("--registered")))
            }
        }
        return cases
    }

    struct StageFigures {
        var matte: Double
        var compose: Double
        /// memcpy of the case's floor bytes, timed in the same loop, frame by frame, so a busy
        /// machine slows both sides of the ratio alike.
        var memcpy: Double
        /// Median per-frame time of each matte stage (MatteStage order), ns per camera pixel: the
        /// matte's work follows the camera, not the output.
        var matteStages: [Double]
        /// `--look`: compose with the people's look, timed in the same loop as `compose` (0 without).
        var lookCompose: Double = 0
        var pipeline: Double { matte + compose }
    }

    private static func memory(_ byteCount: Int) throws(CommandFailure) -> AlignedBuffer {
        do throws(SystemError) { return try AlignedBuffer(byteCount: byteCount) } catch { throw .runtime(error.message) }
    }

    /// Median per-frame ns per output pixel of each stage over `frames` frames of the synthetic
    /// scene.
    static func measure(_ benchCase: BenchCase, frames: Int, workers: Int, look: ColourLookup? = nil) throws(CommandFailure) -> StageFigures {
        let scene = try FrameMemory.allocating("the \(benchCase.camera.description) synthetic scene") { () throws(SystemError) in
            try SyntheticScene.allocating(seed: 7, colourSize: benchCase.camera, depthSize: benchCase.depth)
        }
        let color = try FrameMemory.buffer(.yuyv, benchCase.camera)
        let depth = try FrameMemory.buffer(.z16, benchCase.depth)
        let background = try FrameMemory.buffer(.xrgb8888, benchCase.output)
        let output = try FrameMemory.buffer(benchCase.mode == .frame ? .xrgb8888 : .argb8888,
                                            benchCase.mode == .scaledLayer ? benchCase.camera : benchCase.output)
        scene.render(frame: 0, color: color.view, depth: depth.view, truth: nil)
        fillBackground(background.view)
        let assembly = PipelineAssembly(.init(), workersOverride: workers)
        let processor = try assembly.makeProcessor(colorFormat: .yuyv, colorSize: benchCase.camera, depthSize: benchCase.depth,
                                                   outputSize: benchCase.output, fit: benchCase.fit, matte: MatteParameters(),
                                                   projection: benchCase.projection)
        defer { processor.stop() }
        if benchCase.mode == .layer { processor.setOutputMode(.layer(premultiplied: true)) }
        if benchCase.mode == .scaledLayer { processor.setOutputMode(.cameraLayer(premultiplied: true)) }
        var matteTimes: [UInt64] = []
        var composeTimes: [UInt64] = []
        var copyTimes: [UInt64] = []
        var lookTimes: [UInt64] = []
        let stageTimes = MatteStageTimes(clock: { MonotonicClock.nowNanoseconds() })
        processor.matteStageTimes = stageTimes
        var stageSamples = [[UInt64]](repeating: [], count: MatteStage.count)
        let copyBytes = benchCase.floorCopyBytes
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
            // The same frame again with the look, right after the plain one: the two see the same
            // caches and the same machine load, so their ratio is the look's own cost.
            var lookEnd = copied
            if let look {
                processor.peopleLook = look
                processor.compose(camera: color.view, background: background.view, into: output.view)
                processor.peopleLook = nil
                lookEnd = MonotonicClock.nowNanoseconds()
            }
            if frame >= 2 {
                lookTimes.append(lookEnd - copied)
                matteTimes.append(middle - start)
                composeTimes.append(end - middle)
                copyTimes.append(copied - end)
                for stage in 0..<MatteStage.count { stageSamples[stage].append(stageTimes.nanoseconds[stage]) }
            }
        }
        let pixels = Double(benchCase.output.pixelCount)
        let cameraPixels = Double(benchCase.camera.pixelCount)
        return StageFigures(matte: Double(median(matteTimes)) / pixels, compose: Double(median(composeTimes)) / pixels,
                            memcpy: Double(median(copyTimes)) / pixels,
                            matteStages: stageSamples.map { Double(median($0)) / cameraPixels },
                            lookCompose: look == nil ? 0 : Double(median(lookTimes)) / pixels)
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

    /// A stage's time against the floor's measured rate applied to the stage's own bytes.
    static func stageRatio(_ nanoseconds: Double, bytes: Int, _ benchCase: BenchCase, _ figures: StageFigures) -> Double {
        let floor = figures.memcpy * Double(bytes) / Double(benchCase.trafficBytes)
        return floor > 0 ? nanoseconds / floor : 0
    }

    static func jsonFigures(_ benchCase: BenchCase, _ figures: StageFigures, threads: Int) -> String {
        "\"threads\": \(threads), "
            + "\"stages\": {\"matte\": \(decimal(figures.matte)), \"compose\": \(decimal(figures.compose))}, "
            + "\"stage_ratio_to_memcpy\": {\"matte\": \(decimal(stageRatio(figures.matte, bytes: benchCase.matteBytes, benchCase, figures))), "
            + "\"compose\": \(decimal(stageRatio(figures.compose, bytes: benchCase.composeBytes, benchCase, figures)))}, "
            + "\"pipeline_ns_per_px\": \(decimal(figures.pipeline)), \"memcpy_ns_per_px\": \(decimal(figures.memcpy)), "
            + "\"ratio_to_memcpy\": \(decimal(figures.pipeline / figures.memcpy)), "
            + "\"matte_ms_per_frame\": \(decimal(figures.matte * Double(benchCase.output.pixelCount) / 1_000_000)), "
            + "\"matte_stages_ns_per_camera_px\": {" + matteStageList(figures, separator: ": ", quoted: true) + "}"
            + (figures.lookCompose > 0 ? ", \"look_compose_ns_per_px\": \(decimal(figures.lookCompose)), "
                + "\"look_compose_ratio\": \(decimal(figures.lookCompose / figures.compose))" : "")
    }

    /// The matte's stages as `name value, ...` (text) or `"name": value, ...` (JSON).
    static func matteStageList(_ figures: StageFigures, separator: String, quoted: Bool) -> String {
        var parts: [String] = []
        for index in 0..<MatteStage.count {
            guard let stage = MatteStage(rawValue: index) else { continue }
            let name = quoted ? "\"\(stage.name)\"" : stage.name
            parts.append(name + separator + decimal(figures.matteStages[index]))
        }
        return parts.joined(separator: ", ")
    }

    static func json(_ benchCase: BenchCase, single: StageFigures, all: StageFigures, workers: Int) -> String {
        let pixels = Double(benchCase.output.pixelCount)
        return "{\"size\": \"\(benchCase.output.description)\", \"camera\": \"\(benchCase.camera.description)\", "
            + "\"depth\": \"\(benchCase.depth.description)\", \"mode\": \"\(benchCase.mode.name)\", \"fit\": \"\(benchCase.fit.name)\", "
            + "\"bytes_per_frame\": \(benchCase.trafficBytes), "
            + "\"stage_bytes_per_frame\": {\"matte\": \(benchCase.matteBytes), \"compose\": \(benchCase.composeBytes)}, "
            + "\"memcpy_bytes_per_px\": \(decimal(Double(benchCase.floorCopyBytes) / pixels)), "
            + jsonFigures(benchCase, single, threads: 1) + ", "
            + "\"all_workers\": {" + jsonFigures(benchCase, all, threads: workers) + "}}"
    }

    static func textFigures(_ benchCase: BenchCase, _ figures: StageFigures, threads: Int) -> String {
        let label = threads == 1 ? "1 thread: " : "\(threads) threads:"
        return "  \(label) matte \(decimal(figures.matte)) (\(decimal(stageRatio(figures.matte, bytes: benchCase.matteBytes, benchCase, figures)))x), "
            + "compose \(decimal(figures.compose)) (\(decimal(stageRatio(figures.compose, bytes: benchCase.composeBytes, benchCase, figures)))x), "
            + "pipeline \(decimal(figures.pipeline)) ns/px = \(decimal(figures.pipeline / figures.memcpy)) x memcpy; "
            + "matte \(decimal(figures.matte * Double(benchCase.output.pixelCount) / 1_000_000)) ms/frame\n"
            + "    matte stages, ns per camera px: " + matteStageList(figures, separator: " ", quoted: false)
            + (figures.lookCompose > 0 ? "\n    with the look: compose \(decimal(figures.lookCompose)) ns/px = "
                + "\(decimal(figures.lookCompose / figures.compose)) x compose without it (same run), the look "
                + "\(decimal((figures.lookCompose - figures.compose) * Double(benchCase.output.pixelCount) / 1_000_000)) ms/frame"
                : "")
    }

    static func text(_ benchCase: BenchCase, single: StageFigures, all: StageFigures, workers: Int) -> String {
        let pixels = Double(benchCase.output.pixelCount)
        return "\(benchCase.title): moves \(megabytes(benchCase.trafficBytes)) MB/frame "
            + "(matte \(megabytes(benchCase.matteBytes)), compose \(megabytes(benchCase.composeBytes))); "
            + "memcpy of \(decimal(Double(benchCase.floorCopyBytes) / pixels)) B/px \(decimal(single.memcpy)) ns/px\n"
            + textFigures(benchCase, single, threads: 1) + "\n" + textFigures(benchCase, all, threads: workers)
    }

    static func megabytes(_ bytes: Int) -> String { decimal(Double(bytes) / 1_000_000) }

    /// Three decimals without Foundation's formatter (not available in Embedded Swift).
    static func decimal(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let thousandths = Int((value * 1000).rounded())
        let fraction = abs(thousandths % 1000)
        let padding = fraction < 10 ? "00" : fraction < 100 ? "0" : ""
        return "\(thousandths / 1000).\(padding)\(fraction)"
    }
}
