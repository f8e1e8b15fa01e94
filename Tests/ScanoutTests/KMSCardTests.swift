import CKernel
import Testing
@testable import Scanout

@Suite struct KMSCardTests {
    @Test(.enabled(if: bk_is_directory("/dev/dri") != 1, "this machine has /dev/dri"))
    func noCardIsAnErrorNotAWait() {
        // Waiting is for a display that may be plugged in; a machine without a KMS driver will not
        // grow one, so `open` must fail at once rather than poll.
        var asked = 0
        #expect(throws: ScanoutError.noKMSCard("no /dev/dri/card* node")) {
            _ = try KMSSink.open(options: KMSSinkOptions(), intervalMS: 1) { asked += 1; return true }
        }
        #expect(asked == 0)
    }

    @Test func aNamedCardThatIsNotThereNamesItsPath() {
        #expect(throws: ScanoutError.system(.init("open /nonexistent/card7", .noSuchFile))) {
            _ = try KMSCard.open("/nonexistent/card7")
        }
    }

    @Test func messagesSayWhatFailed() {
        #expect(ScanoutError.noDisplayConnected.message == "no display connected")
        #expect(ScanoutError.commitRejected("the mode 1024x768@60", .invalidArgument).message.hasPrefix("display refused the mode 1024x768@60: "))
    }
}
