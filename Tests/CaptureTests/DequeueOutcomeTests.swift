import KernelIO
import Testing
@testable import Capture

@Suite struct DequeueOutcomeTests {
    @Test func errnosMapToOutcomes() {
        #expect(DequeueOutcome.classify(.wouldBlock) == .empty)
        #expect(DequeueOutcome.classify(.noDevice) == .disconnected)
        #expect(DequeueOutcome.classify(Errno(5)) == .disconnected)   // EIO: vb2 queue failed
        #expect(DequeueOutcome.classify(Errno(32)) == .disconnected)  // EPIPE: last buffer was dequeued
        #expect(DequeueOutcome.classify(.invalidArgument) == .failed(.invalidArgument))
    }

    @Test func onlyDisconnectsAskForAReopen() {
        #expect(CaptureError.disconnected(path: "/dev/video0").isDisconnect)
        #expect(CaptureError.system(SystemError("VIDIOC_QBUF /dev/video0", .noDevice)).isDisconnect)
        #expect(!CaptureError.system(SystemError("VIDIOC_QBUF /dev/video0", .busy)).isDisconnect)
        #expect(!CaptureError.notFound("x").isDisconnect)
    }
}
