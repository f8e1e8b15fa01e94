import Backgrounds
import CKernel
import Compose
import Frames
import KernelIO
import Matte
import Pipeline
import Settings

/// Turns `[pipeline]` and `[matte]` settings into a FrameProcessor and thread placement: which
/// CPU each thread is pinned to, and whether it asks for real-time priority.
public struct PipelineAssembly {
    public let computeCPUMask: UInt64
    public let helperCPUMasks: [UInt64]
    public let realtimePriority: Int32
    public let ioCPUMask: UInt64

    public init(_ settings: PipelineSettings, workersOverride: Int? = nil) {
        let workers = max(1, workersOverride ?? settings.workers)
        var cpus: [Int] = []
        switch settings.workerCPUs {
        case .all: cpus = Array(0..<max(1, Int(bk_online_cpus())))
        case .list(let listed): cpus = listed
        }
        func mask(_ index: Int) -> UInt64 {
            guard !cpus.isEmpty else { return 0 }
            return 1 << UInt64(cpus[index % cpus.count] & 63)
        }
        // Pin only when the config names CPUs: with "all", the kernel balances better than a guess.
        let pinned: Bool
        if case .list = settings.workerCPUs { pinned = true } else { pinned = false }
        computeCPUMask = pinned ? mask(0) : 0
        var helpers: [UInt64] = []
        for index in 1..<max(workers, 1) { helpers.append(pinned ? mask(index) : 0) }
        if workers == 1 { helpers = [] }
        helperCPUMasks = helpers
        realtimePriority = settings.realtime ? Int32(settings.realtimePriority) : 0
        ioCPUMask = settings.ioCPU.map { 1 << UInt64($0 & 63) } ?? 0
    }

    public func makeProcessor(colorFormat: PixelFormat, colorSize: FrameSize, depthSize: FrameSize, outputSize: FrameSize,
                       fit: FitMode, matte: MatteParameters, projection: DepthProjection?) throws(CommandFailure) -> FrameProcessor {
        do throws(SystemError) {
            return try FrameProcessor(colorFormat: colorFormat, colorSize: colorSize, depthSize: depthSize,
                                      outputSize: outputSize, fit: fit, matte: matte, projection: projection,
                                      helperCPUMasks: helperCPUMasks, realtimePriority: realtimePriority)
        } catch {
            if error.errno == .outOfMemory {
                throw .runtime("not enough memory for the matte and compose of a \(colorSize.description) camera "
                               + "(depth \(depthSize.description)) on a \(outputSize.description) output: \(error.message)")
            }
            throw .runtime("cannot start the worker threads: \(error.message)")
        }
    }

    /// Builds the runner over `processor` in `loop` and starts its compute thread where the config
    /// places it.
    public func startRunner<Source: FrameSource & ~Copyable, Sink: FrameSink & ~Copyable>(
        source: consuming Source, sink: consuming Sink, processor: FrameProcessor, pacing: PacingMode,
        syncToleranceNanoseconds: UInt64, generation: FrameGeneration, loop: EventLoop? = nil
    ) throws(CommandFailure) -> PipelineRunner<Source, Sink> {
        do throws(SystemError) {
            let runner = try PipelineRunner(source: source, sink: sink, processor: processor, pacing: pacing,
                                            syncToleranceNanoseconds: syncToleranceNanoseconds,
                                            generation: generation, loop: loop)
            try runner.start(computeCPUMask: computeCPUMask, realtimePriority: realtimePriority)
            return runner
        } catch {
            throw .runtime("cannot start the pipeline: \(error.message)")
        }
    }

    /// Places the calling (I/O) thread: its `io_cpu` and, with `realtime`, real-time priority.
    /// Call after every worker exists, so none inherits the I/O thread's CPU (workers also reset
    /// their own placement, see WorkerThread). Says once what was refused.
    public func placeIOThread() {
        if ioCPUMask != 0 && bk_pin_current_thread(ioCPUMask) != 0 {
            Log.warning("could not pin the I/O thread to the configured io_cpu; running unpinned")
        }
        if realtimePriority > 0 && bk_set_realtime(realtimePriority) != 0 {
            Log.warning("real-time priority was not permitted for the I/O thread (needs CAP_SYS_NICE or root)")
        }
    }
}
