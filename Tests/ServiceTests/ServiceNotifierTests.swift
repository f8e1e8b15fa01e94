import CKernel
import Foundation
import KernelIO
import TestSupport
import Testing
@testable import Service

@Suite struct ServiceNotifierTests {
    @Test func unsetSocketMakesEveryMessageANoOp() throws {
        let notifier = try ServiceNotifier(notifySocket: nil, watchdogUSec: "30000000", ownPID: bk_getpid())
        let connected = notifier.isConnected, interval = notifier.watchdogInterval
        #expect(!connected)
        #expect(interval == nil)
        try notifier.ready()
        try notifier.status("waiting for the camera")
        try notifier.watchdog()
        let empty = try ServiceNotifier(notifySocket: "", ownPID: bk_getpid())
        let emptyConnected = empty.isConnected
        #expect(!emptyConnected)
    }

    @Test func abstractSocketReceivesEachMessageAsOneDatagram() throws {
        let listener = NotifyListener.abstract()
        let notifier = try ServiceNotifier(notifySocket: listener.spelling, ownPID: bk_getpid())
        let connected = notifier.isConnected
        #expect(connected)
        try notifier.ready()
        try notifier.watchdog()
        try notifier.stopping()
        #expect(listener.receive() == "READY=1")
        #expect(listener.receive() == "WATCHDOG=1")
        #expect(listener.receive() == "STOPPING=1")
        #expect(listener.receive() == nil)
    }

    @Test func pathSocketReceivesStatusWithLineBreaksFlattened() throws {
        let listener = NotifyListener.path()
        let notifier = try ServiceNotifier(notifySocket: listener.spelling, ownPID: bk_getpid())
        try notifier.status("camera D435 640x480\nHDMI 1920x1080 30 fps\r\nbackdrop beach.png")
        #expect(listener.receive() == "STATUS=camera D435 640x480 HDMI 1920x1080 30 fps  backdrop beach.png")
        try notifier.status("")
        #expect(listener.receive() == "STATUS=")
    }

    @Test func sendToAnAbsentListenerThrowsNamingTheAddress() throws {
        let notifier = try ServiceNotifier(notifySocket: "@backdrop-test-nobody-\(bk_getpid())", ownPID: bk_getpid())
        #expect(throws: SystemError.self) { try notifier.ready() }
        do {
            try notifier.ready()
        } catch {
            #expect(error.operation == "notify @backdrop-test-nobody-\(bk_getpid())")
            #expect(error.errno == Errno(ECONNREFUSED))
        }
        let missingPath = try ServiceNotifier(notifySocket: "/tmp/backdrop-test-no-such-socket", ownPID: bk_getpid())
        do {
            try missingPath.watchdog()
            Issue.record("a send to a missing path succeeded")
        } catch {
            #expect(error.errno == .noSuchFile)
        }
    }

    @Test func watchdogIntervalComesFromTheEnvironmentOnlyForThisProcess() throws {
        let listener = NotifyListener.abstract()
        let own = bk_getpid()
        let mine = try ServiceNotifier(notifySocket: listener.spelling, watchdogUSec: "20000000",
                                       watchdogPID: "\(own)", ownPID: own)
        let mineInterval = mine.watchdogInterval
        #expect(mineInterval?.microseconds == 20_000_000)
        #expect(mineInterval?.pingEveryNanoseconds == 10_000_000_000)
        let noPID = try ServiceNotifier(notifySocket: listener.spelling, watchdogUSec: "20000000", ownPID: own)
        let noPIDInterval = noPID.watchdogInterval
        #expect(noPIDInterval?.microseconds == 20_000_000)
        let other = try ServiceNotifier(notifySocket: listener.spelling, watchdogUSec: "20000000",
                                        watchdogPID: "\(own + 1)", ownPID: own)
        let otherInterval = other.watchdogInterval
        #expect(otherInterval == nil)
    }

    @Test func watchdogIntervalIgnoresZeroAndMalformedValues() {
        #expect(WatchdogInterval(usec: "0", pid: nil, ownPID: 5) == nil)
        #expect(WatchdogInterval(usec: "20s", pid: nil, ownPID: 5) == nil)
        #expect(WatchdogInterval(usec: "", pid: nil, ownPID: 5) == nil)
        #expect(WatchdogInterval(usec: nil, pid: nil, ownPID: 5) == nil)
        #expect(WatchdogInterval(usec: "1000", pid: "five", ownPID: 5) == nil)
        #expect(WatchdogInterval(usec: "1000", pid: "5", ownPID: 5)?.pingEveryNanoseconds == 500_000)
    }

    @Test func unusableSocketAddressesAreRefusedWithTheReason() {
        let cases: [(String, String)] = [
            ("run/notify", "only an absolute path or an @abstract name is supported"),
            ("vsock:2:1234", "only an absolute path or an @abstract name is supported"),
            ("@", "an abstract name follows the @"),
            ("/" + String(repeating: "a", count: 107), "a socket path is at most 107 bytes"),
            ("@" + String(repeating: "a", count: 108), "an abstract name is at most 107 bytes"),
        ]
        for (value, reason) in cases {
            #expect(throws: ServiceSetupError.address(NotifyAddressError(value: value, reason: reason))) {
                _ = try ServiceNotifier(notifySocket: value, ownPID: 1)
            }
        }
        // The longest of each kind is accepted.
        #expect((try? NotifyAddress(parsing: "/" + String(repeating: "a", count: 106)))?.bytes.count == 107)
        #expect((try? NotifyAddress(parsing: "@" + String(repeating: "a", count: 107)))?.isAbstract == true)
    }

    @Test func errorMessageNamesTheVariableAndWhatIsAllowed() {
        let error = NotifyAddressError(value: "run/notify", reason: "only an absolute path or an @abstract name is supported")
        #expect(error.message == "NOTIFY_SOCKET=run/notify is not usable: only an absolute path or an @abstract name is supported")
    }

    /// systemd's own client (sd_notify inside systemd-notify) addresses our listener the same way
    /// our notifier does: the encodings of abstract and path addresses agree with systemd's.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-notify"),
                   "needs systemd-notify (package systemd)"))
    func systemdsOwnClientReachesTheSameListener() throws {
        func check(_ listener: borrowing NotifyListener) throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-notify")
            // --no-block: without it systemd-notify waits for the manager to answer a barrier.
            process.arguments = ["--no-block", "STATUS=from systemd-notify"]
            process.environment = ["NOTIFY_SOCKET": listener.spelling]
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            #expect(listener.receive() == "STATUS=from systemd-notify")
        }
        try check(NotifyListener.abstract())
        try check(NotifyListener.path())
    }
}
