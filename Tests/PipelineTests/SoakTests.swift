import CKernel
import Frames
import Glibc
import Matte
import Scenes
import Sinks
import Testing
@testable import Pipeline

/// What a box left running for days needs: memory and descriptors flat. The synthetic source runs
/// unpaced into the null sink for BACKDROP_SOAK_FRAMES frames (make soak: 100,000 at 1920x1080;
/// make soak-test: 10,000 from a 160x120 camera at 320x180, small enough for a loaded CI machine) while this process's resident memory (VmRSS) and open
/// descriptors (/proc/self/fd) are sampled. Only with that variable set, and alone in its process
/// (`--filter SoakTests`), so no other test's memory moves the figures.
///
/// After warm-up (the first tenth of the run: buffers touched, caches and the allocator's arenas
/// settled) RSS may move by at most 1 MiB and the descriptor count not at all. 1 MiB and not 0:
/// the frame path allocates nothing (SteadyStateAllocationTests), but RSS counts pages, and the
/// kernel and libc may fault in a few more (a deeper stack page, a lazily bound symbol, the
/// sampler's own reads) without any leak; a leak of even one small object per frame is 100,000+
/// objects here and far past 1 MiB. The figure is the same ±1 MB.
///
/// When it samples: on a 10 s monotonic clock from the end of warm-up (the rule, so a long
/// run's samples are evenly spaced in time whatever the machine's speed), and also at the end of
/// the run and at every tenth of the frames after warm-up, so the short `make soak-test` run, over
/// in seconds, is still judged on about ten samples. Sampling happens between loop wakes (the
/// runner's `between`), so the pipeline is never drained for it; each sample is printed as taken.
@Suite(.enabled(if: getenv("BACKDROP_SOAK_FRAMES") != nil, "set BACKDROP_SOAK_FRAMES (make soak, make soak-test)"))
struct SoakTests {
    static func residentKiB() -> Int {
        guard let file = fopen("/proc/self/status", "r") else { return -1 }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(cString: line)
            if text.hasPrefix("VmRSS:") {
                return Int(text.dropFirst(6).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "") ?? -1
            }
        }
        return -1
    }

    static func openDescriptors() -> Int {
        guard let folder = opendir("/proc/self/fd") else { return -1 }
        var count = 0
        while let entry = readdir(folder) {
            if entry.pointee.d_name.0 != 46 { count += 1 }  // skip "." and ".."
        }
        closedir(folder)
        return count - 1  // the listing's own descriptor
    }

    static func size(_ variable: String, default fallback: FrameSize) -> FrameSize {
        guard let text = getenv(variable).map({ String(cString: $0) }) else { return fallback }
        let parts = text.split(separator: "x").compactMap { Int($0) }
        return parts.count == 2 ? FrameSize(width: parts[0], height: parts[1]) : fallback
    }

    @Test func residentMemoryAndDescriptorsStayFlat() throws {
        let frames = Int(String(cString: getenv("BACKDROP_SOAK_FRAMES")!)) ?? 10_000
        let output = Self.size("BACKDROP_SOAK_SIZE", default: FrameSize(width: 1920, height: 1080))
        let camera = Self.size("BACKDROP_SOAK_CAMERA", default: FrameSize(width: 640, height: 480))
        let run = try SyntheticNullRun(seed: 9, camera: camera, output: output)
        let runner = run.runner
        defer { run.stop() }

        let warmUp = max(frames / 10, 100)
        let period: UInt64 = 10_000_000_000
        let tenth = max((frames - warmUp) / 10, 1)
        let started = bk_monotonic_ns()
        runner.run(frameLimit: warmUp)
        let base = (rss: Self.residentKiB(), fds: Self.openDescriptors())
        let measured = bk_monotonic_ns()
        print("soak: warm-up \(warmUp) frames in \(Double(measured - started) / 1e9) s; RSS \(base.rss) KiB, fds \(base.fds)")
        var worst = (rss: base.rss, fds: base.fds)
        var lowest = base.rss, highest = base.rss
        var samples = 0
        var nextTick = measured + period
        var nextFrames = warmUp + tenth
        func sample(_ now: UInt64, _ reason: String) {
            let rss = Self.residentKiB(), fds = Self.openDescriptors()
            samples += 1
            if abs(rss - base.rss) > abs(worst.rss - base.rss) { worst.rss = rss }
            if fds != base.fds { worst.fds = fds }
            lowest = min(lowest, rss)
            highest = max(highest, rss)
            print("soak sample \(samples) (\(reason)): t=\((now - measured) / 1_000_000_000) s frames=\(runner.pairsHandedOff) RSS \(rss) KiB (\(rss - base.rss) from warm-up) fds \(fds)")
        }
        runner.run(frameLimit: frames) { _ in
            let now = bk_monotonic_ns()
            if now >= nextTick {
                sample(now, "10 s clock")
                while nextTick <= now { nextTick += period }
            } else if runner.pairsHandedOff >= nextFrames && runner.pairsHandedOff < frames {
                sample(now, "tenth of the frames")
            }
            while nextFrames <= runner.pairsHandedOff { nextFrames += tenth }
            return true
        }
        let done = runner.pairsHandedOff
        let ended = bk_monotonic_ns()
        sample(ended, "end")
        let seconds = Double(ended - started) / 1e9
        print("soak: \(done) frames \(camera.description) -> \(output.description) in \(Int(seconds)) s (\(Int(Double(done) / seconds)) frames/s); \(samples) samples after warm-up; RSS after warm-up \(base.rss) KiB, lowest \(lowest), highest \(highest), furthest \(worst.rss); fds \(base.fds) -> \(worst.fds)")
        #expect(samples >= 2, "the run was sampled after warm-up")
        #expect(base.rss > 0 && base.fds > 0, "the samples were read")
        #expect(done == frames)
        #expect(abs(worst.rss - base.rss) <= 1024, "RSS moved \(worst.rss - base.rss) KiB after warm-up")
        #expect(worst.fds == base.fds, "open descriptors went from \(base.fds) to \(worst.fds)")
    }
}
