import CFaultInjector
import CKernel
import KernelIO
import Testing
@testable import Capture

/// The hardware-monitor exchange's error paths, with faults injected at the funnel on a node that
/// has no extension unit (/dev/null answers UVCIOC_CTRL_QUERY with ENOTTY, as a non-uvcvideo
/// node does). A real D4xx exchange needs the camera or the virtual board's fake one.
@Suite(.serialized) struct HardwareMonitorChannelTests {
    static let node = "/dev/null"

    static func scoped<T>(_ body: () throws -> T) rethrows -> T {
        _ = fault_scope_begin()
        defer { fault_scope_end() }
        return try body()
    }

    static func queriesSeen() -> Int32 { fault_calls_seen(Int32(BK_CALL_IOCTL)) }

    @Test func aNodeWithoutTheUnitIsUnsupportedNotAFailure() throws {
        let channel = try HardwareMonitorChannel(path: Self.node)
        let error = #expect(throws: CaptureError.self) { try channel.exchange(HardwareMonitor.command(.gvd)) }
        guard case .unsupported(let path, let reason) = error else { Issue.record("\(String(describing: error))"); return }
        #expect(path == Self.node && reason.contains("extension unit 3 SET_CUR"))
    }

    @Test func busyIsRetriedThenTheRealAnswerCounts() throws {
        let channel = try HardwareMonitorChannel(path: Self.node)
        try Self.scoped {
            fault_fail(Int32(BK_CALL_IOCTL), Int32(FAULT_ANY_FD), BK_UVCIOC_CTRL_QUERY, Int32(BK_EBUSY), 0, 4)
            #expect(throws: CaptureError.self) { try channel.exchange(HardwareMonitor.command(.gvd)) }
            #expect(fault_injected() == 4)
            #expect(Self.queriesSeen() == 5)
        }
    }

    @Test func persistentIOErrorGivesUpAfterFiveTriesNamingTheCall() throws {
        let channel = try HardwareMonitorChannel(path: Self.node)
        try Self.scoped {
            fault_fail(Int32(BK_CALL_IOCTL), Int32(FAULT_ANY_FD), BK_UVCIOC_CTRL_QUERY, Int32(BK_EIO), 0, -1)
            #expect(throws: CaptureError.system(SystemError("UVCIOC_CTRL_QUERY SET_CUR /dev/null", Errno(Int32(BK_EIO))))) {
                try channel.exchange(HardwareMonitor.command(.getIntCal, 25))
            }
            #expect(Self.queriesSeen() == Int32(HardwareMonitorChannel.attempts))
        }
    }

    @Test func unplugMidExchangeIsADisconnect() throws {
        let channel = try HardwareMonitorChannel(path: Self.node)
        try Self.scoped {
            fault_fail(Int32(BK_CALL_IOCTL), Int32(FAULT_ANY_FD), BK_UVCIOC_CTRL_QUERY, Int32(BK_ENODEV), 0, 1)
            let error = #expect(throws: CaptureError.disconnected(path: Self.node)) {
                try channel.readCalibration()
            }
            #expect(error?.isDisconnect == true)
        }
    }

    @Test func interruptedQueriesAreRepeated() throws {
        let channel = try HardwareMonitorChannel(path: Self.node)
        try Self.scoped {
            fault_interrupt_each(Int32(BK_CALL_IOCTL))
            #expect(throws: CaptureError.self) { try channel.exchange(HardwareMonitor.command(.gvd)) }
            // One EINTR, then the repeat reaches the kernel (ENOTTY): no retry pause, no give-up.
            #expect(fault_injected() == 1 && Self.queriesSeen() == 2)
        }
    }
}
