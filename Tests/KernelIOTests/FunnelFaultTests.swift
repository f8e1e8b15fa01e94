import CFaultInjector
import CKernel
import KernelIO
import TestSupport
import Testing

/// The funnel's errors as the kernel would give them (CFaultInjector): what a user of the box
/// expects from each is that an interrupted or not-yet-ready call is simply done again, and a
/// full or failing disk costs the one file being written, never the one already there.
@Suite struct FunnelFaultTests {
    static func read(_ path: String) -> [UInt8]? {
        do throws(SystemError) { return try WholeFile.bytes(path, limit: 1 << 24) } catch { return nil }
    }

    static func names(_ path: String) throws -> [String] {
        try DirectoryDescriptor.open(path).entries().names.sorted()
    }

    static func pattern(_ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) } }

    @Test func everyReadAndWriteInterruptedOnceStillWritesAndReadsTheWholeFile() throws {
        let tmp = TemporaryDirectory("faults-eintr")
        let bytes = Self.pattern(3 << 20)
        _ = fault_scope_begin()
        defer { fault_scope_end() }
        fault_interrupt_each(Int32(BK_CALL_READ | BK_CALL_WRITE | BK_CALL_WAIT))
        try DurableFile.write(bytes, toPath: tmp.file("big.bin"))
        let file = try FileDescriptor.openForReading(tmp.file("big.bin"))
        var back = [UInt8](repeating: 0, count: bytes.count + 1)
        var got = 0
        while true {
            let n = try back.withUnsafeMutableBytes { try file.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[got...])) }
            if n == 0 { break }
            got += n
        }
        #expect(got == bytes.count)
        #expect(Array(back[..<got]) == bytes)
        #expect(fault_injected() >= 3, "the write, the read and the end-of-file read were each interrupted")
        #expect(try Self.names(tmp.path) == ["big.bin"])
    }

    @Test func aFullDiskMidWriteKeepsThePreviousFileAndLeavesNoTemporary() throws {
        let tmp = TemporaryDirectory("faults-enospc")
        _ = tmp.write("settings.bin", [1, 2, 3])
        _ = fault_scope_begin()
        defer { fault_scope_end() }
        fault_fail(Int32(BK_CALL_WRITE), -1, 0, Int32(BK_ENOSPC), 0, 1)
        let folder = try DirectoryDescriptor.open(tmp.path)
        #expect {
            try DurableFile.write(Self.pattern(4096), as: "settings.bin", in: folder)
        } throws: { error in
            (error as? SystemError)?.message == "write \(tmp.path)/settings.bin: No space left on device"
        }
        #expect(Self.read(tmp.file("settings.bin")) == [1, 2, 3])
        #expect(try Self.names(tmp.path) == ["settings.bin"])
        // The next write, with room again, goes through.
        try DurableFile.write([4, 5], as: "settings.bin", in: folder)
        #expect(Self.read(tmp.file("settings.bin")) == [4, 5])
    }

    @Test func anIOErrorOnTheFsyncKeepsThePreviousFileAndLeavesNoTemporary() throws {
        let tmp = TemporaryDirectory("faults-eio")
        _ = tmp.write("photo.jpg", [9, 9])
        _ = fault_scope_begin()
        defer { fault_scope_end() }
        fault_fail(Int32(BK_CALL_FSYNC), -1, 0, Int32(BK_EIO), 0, 1)
        #expect {
            try DurableFile.write(Self.pattern(100), toPath: tmp.file("photo.jpg"))
        } throws: { error in
            (error as? SystemError)?.message == "fsync \(tmp.path)/photo.jpg: Input/output error"
        }
        #expect(Self.read(tmp.file("photo.jpg")) == [9, 9])
        #expect(try Self.names(tmp.path) == ["photo.jpg"])
    }

    @Test func anInterruptedOrNotYetReadyWakeIsTakenByTheNextWait() throws {
        let wake = try WakeSignal()
        let events = try EventSet()
        try wake.withRawValue { fd throws(SystemError) in try events.add(fd, token: 1) }
        _ = fault_scope_begin()
        defer { fault_scope_end() }
        wake.signal()
        fault_fail(Int32(BK_CALL_READ), -1, 0, Int32(BK_EAGAIN), 0, 1)
        fault_fail(Int32(BK_CALL_WAIT), -1, 0, Int32(BK_EINTR), 0, 1)
        #expect(events.wait(timeoutMilliseconds: 1000) == 0, "an interrupted wait wakes with nothing")
        #expect(events.wait(timeoutMilliseconds: 1000) == 1)
        #expect(!wake.drain(), "EAGAIN: not drained yet")
        #expect(events.wait(timeoutMilliseconds: 1000) == 1, "the wake-up is still there")
        #expect(wake.drain())
        #expect(fault_injected() == 2)
    }

    @Test func semaphoresAndEventfdsRetryEveryInterruptedCall() throws {
        let semaphore = try KernelIO.Semaphore()
        let wake = try WakeSignal()
        _ = fault_scope_begin()
        defer { fault_scope_end() }
        fault_interrupt_each(Int32(BK_CALL_READ | BK_CALL_WRITE | BK_CALL_WAIT))
        semaphore.post()
        semaphore.post()
        let first = semaphore.wait(timeoutMilliseconds: 1000)
        semaphore.wait()
        let third = semaphore.wait(timeoutMilliseconds: 0)
        #expect(first)
        #expect(!third, "two posts, two waits taken")
        wake.signal()
        #expect(wake.drain())
        #expect(fault_injected() >= 7)
    }

    @Test func threadsStartedInTheScopeShareItAndTheEndFreesThem() throws {
        let tmp = TemporaryDirectory("faults-scope")
        final class Outcome: @unchecked Sendable { var message = "none" }
        let outcome = Outcome()
        _ = fault_scope_begin()
        fault_fail(Int32(BK_CALL_WRITE), -1, 0, Int32(BK_EIO), 0, -1)
        let worker = WorkerThread(name: "scoped") {
            do throws(SystemError) { try DurableFile.write([1], toPath: tmp.file("inside.bin")) } catch {
                outcome.message = error.message
            }
        }
        try worker.start()
        worker.join()
        fault_scope_end()
        #expect(outcome.message == "write \(tmp.path)/inside.bin: Input/output error")
        try DurableFile.write([2], toPath: tmp.file("after.bin"))
        #expect(Self.read(tmp.file("after.bin")) == [2])
    }
}
