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
        let samples = 20
        let started = bk_monotonic_ns()
        runner.run(frameLimit: warmUp)
        let base = (rss: Self.residentKiB(), fds: Self.openDescriptors())
        var worst = (rss: base.rss, fds: base.fds)
        var lowest = base.rss
        var done = warmUp
        for index in 1...samples {
            let target = warmUp + (frames - warmUp) * index / samples
            runner.run(frameLimit: target)
            done = target
            let rss = Self.residentKiB(), fds = Self.openDescriptors()
            if abs(rss - base.rss) > abs(worst.rss - base.rss) { worst.rss = rss }
            if fds != base.fds { worst.fds = fds }
            lowest = min(lowest, rss)
        }
        let seconds = Double(bk_monotonic_ns() - started) / 1e9
        let start = Self.residentKiB()
        print("soak: \(done) frames \(camera.description) -> \(output.description) in \(Int(seconds)) s (\(Int(Double(done) / seconds)) frames/s); RSS after warm-up \(base.rss) KiB, end \(start) KiB, furthest \(worst.rss) KiB (lowest \(lowest)); fds \(base.fds) -> \(worst.fds)")
        #expect(base.rss > 0 && base.fds > 0, "the samples were read")
        #expect(runner.pairsHandedOff == done)
        #expect(abs(worst.rss - base.rss) <= 1024, "RSS moved \(worst.rss - base.rss) KiB after warm-up")
        #expect(worst.fds == base.fds, "open descriptors went from \(base.fds) to \(worst.fds)")
    }
}
