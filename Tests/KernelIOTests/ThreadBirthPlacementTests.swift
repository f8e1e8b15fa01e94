import CKernel
import Foundation
import Testing

/// bk_thread_start gives a thread its CPUs before it first runs: what reads /proc after start-up
/// (make test's placement check, a person with `taskset -p`) never sees a worker on the creating
/// thread's CPUs because the scheduler had not run it yet. The creator here is pinned to CPU 0, so
/// a thread that inherited its CPUs would see "0" first thing.
@Suite(.serialized, .enabled(if: bk_online_cpus() >= 2, "needs 2 CPUs to tell a pinning from an inherited one"))
struct ThreadBirthPlacementTests {
    @Test func aPinnedThreadIsBornOnItsCPUs() {
        #expect(Self.firstSight(mask: 0b10) == "1")
    }

    @Test func anUnpinnedThreadIsBornOnTheProcessCPUsNotTheCreators() {
        let processCPUs = Self.allowedCPUs(in: "/proc/self/status")
        #expect(processCPUs != "0")
        #expect(Self.firstSight(mask: 0) == processCPUs)
    }

    /// The CPUs a thread's status file lists ("1", "0-1").
    static func allowedCPUs(in path: String) -> String {
        let status = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") }
        return line?.split(separator: "\t").last.map(String.init) ?? "?"
    }

    final class Sight { var cpus = "" }

    /// What a thread started with `mask` reads of its own CPUs before doing anything else.
    static func firstSight(mask: UInt64) -> String {
        #expect(bk_pin_current_thread(0b01) == 0)
        defer { _ = bk_unpin_current_thread() }
        let sight = Sight()
        let context = Unmanaged.passRetained(sight).toOpaque()
        var handle: UInt64 = 0
        let result = bk_thread_start(&handle, { raw in
            let sight = Unmanaged<Sight>.fromOpaque(raw!).takeRetainedValue()
            sight.cpus = ThreadBirthPlacementTests.allowedCPUs(in: "/proc/thread-self/status")
            return nil
        }, context, mask)
        #expect(result == 0)
        if result == 0 { _ = bk_thread_join(handle) }
        return sight.cpus
    }
}
