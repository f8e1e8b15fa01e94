import Backgrounds
import Frames
import KernelIO
import Runtime

/// `backdrop bench --backgrounds DIR`: what a button press costs with the backdrop memory budget,
/// driven as `LiveBackdrops` drives it: the decode on the backdrop worker, the I/O thread serving a
/// 60 Hz frame tick on the event loop meanwhile (a stand-in for the frames it would pump). Steps
/// twice round the folder's ring, one press at a time (each once the one before has settled), then
/// a burst of three presses at once, and reports per switch the time until the new backdrop could
/// be shown (a pointer change when it was prepared ahead), the time until its neighbours were
/// decoded too, and how many of the ticks due meanwhile the loop served (all of them, unless the
/// I/O thread was held), with the decoded memory held.
enum BackdropSwitchBench {
    private static let tickNanoseconds: UInt64 = 16_666_667

    static func run(directory: String, size: FrameSize) throws(CommandFailure) -> String {
        let (library, warnings) = try FrameMemory.allocating("the backdrops at \(size.description)") { () throws(SystemError) in
            try BackgroundLibrary.load(directory: directory, outputSize: size, fit: .fill)
        }
        guard !library.usesBuiltInDefault else {
            throw .invalidInput("\(directory): no usable backdrop to switch between (\(warnings.count) problem(s))")
        }
        let loop = try LiveRun.makeLoop()
        let worker: BackdropWorker
        do throws(SystemError) { worker = try BackdropWorker(loop: loop, cpuMask: 0) } catch {
            throw .runtime("cannot start the backdrop worker: \(error.message)")
        }
        defer { worker.stop() }
        var bench = Ticking(library: library, worker: worker, loop: loop)
        var shown: [UInt64] = [], prepared: [UInt64] = [], served: [Int] = [], due: [Int] = []
        for _ in 0..<(2 * library.count) {
            let one = bench.press(1)
            shown.append(one.shown); prepared.append(one.settled); served.append(one.served); due.append(one.due)
        }
        let burst = bench.press(1, times: 3)
        return "backdrop switch, \(library.count) backdrop(s) at \(size.description), decoded on the backdrop worker: shown after "
            + "\(milliseconds(shown)), next one prepared in \(milliseconds(prepared)); frame ticks served while preparing "
            + "\(served.reduce(0, +)) of \(due.reduce(0, +)) due; a burst of 3 presses shown after "
            + "\(BenchCommand.decimal(Double(burst.shown) / 1e6)) ms, settled after \(BenchCommand.decimal(Double(burst.settled) / 1e6)) ms, "
            + "\(burst.served) of \(burst.due) ticks served; decoded backdrops hold \(library.residentBytes / (1024 * 1024)) MiB"
    }

    /// The loop side of one switch, with a frame tick every `tickNanoseconds` counted as a frame
    /// handed off (so a slot compute would hold is freed as in the live loop).
    private struct Ticking {
        let library: BackgroundLibrary
        let worker: BackdropWorker
        let loop: EventLoop
        let tick: EventLoop.DeadlineID
        var handedOff = 0

        init(library: BackgroundLibrary, worker: BackdropWorker, loop: EventLoop) {
            self.library = library
            self.worker = worker
            self.loop = loop
            tick = loop.newDeadline()
        }

        /// `times` presses of `steps` at once; returns once shown and every neighbour decoded.
        mutating func press(_ steps: Int, times: Int = 1) -> (shown: UInt64, settled: UInt64, served: Int, due: Int) {
            let start = MonotonicClock.nowNanoseconds()
            var shownAt: UInt64? = nil
            for _ in 0..<times where library.aim(steps, handedOff: handedOff) {
                library.published(handedOff: handedOff)
                shownAt = MonotonicClock.nowNanoseconds()
            }
            if !library.switchPending && shownAt == nil { shownAt = start }
            feed()
            var served = 0
            var nextTick = start + tickNanoseconds
            while library.switchPending || !worker.isIdle {
                loop.setDeadline(tick, at: nextTick)
                let ready = loop.wait()
                let now = MonotonicClock.nowNanoseconds()
                if loop.takeExpired(tick, now: now) {
                    served += 1
                    handedOff += 1
                    nextTick = max(nextTick + tickNanoseconds, now + 1)
                }
                if case .filled(let fill, let problem)? = worker.take(ready),
                   library.filled(fill, problem: problem, handedOff: handedOff) {
                    library.published(handedOff: handedOff)
                    shownAt = MonotonicClock.nowNanoseconds()
                }
                feed()
            }
            let end = MonotonicClock.nowNanoseconds()
            return ((shownAt ?? end) - start, end - start, served, Int((end - start) / tickNanoseconds))
        }

        private func feed() {
            guard worker.isIdle, let fill = library.nextFill(handedOff: handedOff) else { return }
            _ = worker.start(.fill(fill))
        }
    }

    private static func milliseconds(_ samples: [UInt64]) -> String {
        let sorted = samples.sorted()
        let median = Double(sorted[sorted.count / 2]) / 1e6, maximum = Double(sorted[sorted.count - 1]) / 1e6
        return "p50 \(BenchCommand.decimal(median)) ms (max \(BenchCommand.decimal(maximum)) ms)"
    }
}
