import Capture
import Glibc
import Import
import KernelIO
import Scanout
import Service
import TestSupport
import Testing
@testable import Runtime

/// The runtime loop's device waits with fakes for the devices: the display and the camera are
/// closures that fail until the test lets them succeed, the screen records what it was asked to
/// show, the service manager is a datagram socket of the test's own. Signals are raised on the
/// test's thread (blocked there by the SignalChannel, read through its signalfd), so they arrive
/// exactly while the loop waits: from inside an attempt, before the loop sleeps again.
/// Serialized: each test blocks signals on its own thread and raises them there.
///
/// Not reproduced here: the real display and cameras (the virtual board's end-to-end test opens
/// those), and the loop's timer runs on CLOCK_MONOTONIC (the waits are a few hundred ms).
@Suite(.serialized) struct DeviceWaitTests {
    /// Stands in for a display or a camera: what an attempt returns once it works.
    final class FakeDevice {}

    /// Records each text the wait shows and whether it finished.
    final class FakeScreen: WaitScreen {
        var shown: [String] = []
        var finished = false
        func show(_ text: String) -> Bool { shown.append(text); return true }
        func serve(_ ready: UInt64) {}
        func finish() { finished = true }
    }

    private func link(to listener: borrowing NotifyListener) throws -> ServiceLink {
        ServiceLink(notifier: try ServiceNotifier(notifySocket: listener.spelling, ownPID: getpid()))
    }

    private func datagrams(_ listener: borrowing NotifyListener) -> [String] {
        var all: [String] = []
        while let next = listener.receive() { all.append(next) }
        return all
    }

    /// The acceptance case (issue 34): the display wait used to read the signalfd and keep only
    /// TERM/INT, so a SIGHUP (an import's) that came while the box waited for its TV was lost.
    @Test func sighupDuringTheDisplayWaitIsKeptForTheLiveBooth() throws {
        let signals = try SignalChannel()
        let listener = NotifyListener.abstract()
        let loop = try RuntimeLoop(signals: signals, service: try link(to: listener))
        var attempts = 0
        let display = try DisplayWait.open(loop: loop, signals: signals) { () throws(ScanoutError) -> FakeDevice in
            attempts += 1
            if attempts == 1 {
                raise(SIGHUP)
                throw .noDisplayConnected
            }
            return FakeDevice()
        }
        #expect(display != nil)
        #expect(attempts == 2)
        #expect(loop.stopSignal == nil)
        #expect(loop.reloadPending)
        #expect(loop.takeReload())
        #expect(!loop.reloadPending)
        // READY while waiting: the loop runs, STATUS says what it waits for.
        #expect(datagrams(listener) == ["STATUS=starting", "STATUS=waiting for a display (plug in HDMI)", "READY=1"])
    }

    @Test func stopDuringTheDisplayWaitEndsItAndOtherFailuresEndTheRun() throws {
        let signals = try SignalChannel()
        let loop = try RuntimeLoop(signals: signals, service: ServiceLink(notifier: try ServiceNotifier(notifySocket: nil, ownPID: 0)))
        var attempts = 0
        let display = try DisplayWait.open(loop: loop, signals: signals) { () throws(ScanoutError) -> FakeDevice in
            attempts += 1
            raise(SIGUSR1)
            raise(SIGTERM)
            throw .noDisplayConnected
        }
        #expect(display == nil)
        #expect(attempts == 1)
        #expect(loop.stopSignal == SIGTERM)
        #expect(loop.takeStatistics())

        let other = try RuntimeLoop(signals: signals, service: ServiceLink(notifier: try ServiceNotifier(notifySocket: nil, ownPID: 0)))
        #expect(throws: CommandFailure.self) {
            _ = try DisplayWait.open(loop: other, signals: signals) { () throws(ScanoutError) -> FakeDevice in
                throw .noKMSCard("no card in the test")
            }
        }
    }

    /// A camera away at power-on and then plugged in: "NO CAMERA" on screen, the cause in STATUS,
    /// the watchdog fed while it waits, the camera taken when it comes.
    @Test func cameraAwayThenBackAtStartUp() throws {
        let signals = try SignalChannel()
        let listener = NotifyListener.abstract()
        let loop = try RuntimeLoop(signals: signals, service: try link(to: listener))
        let screen = FakeScreen()
        let notices = ImportNoticeWatch(configPath: "/nowhere/backdrop.conf")
        var attempts = 0
        let camera = CameraWait.open(loop: loop, signals: signals, screen: screen, notices: notices,
                                     noticeHold: nil) { () throws(CaptureError) -> FakeDevice in
            attempts += 1
            // Away until the heartbeat has beaten once while waiting (a second).
            guard loop.heartbeat.count > 0 else { throw .notFound("no depth camera (unplugged)") }
            return FakeDevice()
        }
        #expect(camera != nil)
        #expect(attempts >= 2)
        #expect(screen.shown == ["NO CAMERA"])
        #expect(screen.finished)
        let sent = datagrams(listener)
        #expect(sent.prefix(3) == ["STATUS=starting", "STATUS=waiting for the camera: no depth camera (unplugged)", "READY=1"])
        #expect(sent.contains("WATCHDOG=1"))
    }

    /// An import that ends while the camera is away: its outcome replaces "NO CAMERA" for its
    /// hold, then "NO CAMERA" again; the reload it asks for stays pending for the live booth,
    /// which gets the outcome as already shown.
    @Test func importNoticeDuringTheCameraWait() throws {
        let data = TemporaryDirectory("runtime-import")
        let signals = try SignalChannel()
        let loop = try RuntimeLoop(signals: signals, service: ServiceLink(notifier: try ServiceNotifier(notifySocket: nil, ownPID: 0)))
        let screen = FakeScreen()
        let notices = ImportNoticeWatch(configPath: data.path + "/current/backdrop.conf")
        var attempts = 0
        let camera = CameraWait.open(loop: loop, signals: signals, screen: screen, notices: notices,
                                     noticeHold: 100_000_000) { () throws(CaptureError) -> FakeDevice in
            attempts += 1
            if attempts == 1 {
                do throws(SystemError) {
                    _ = try ImportNotice.write("3 BACKDROPS IN", status: 0, data: data.path)
                } catch {
                    Issue.record("cannot write the import's outcome: \(error.message)")
                }
                raise(SIGHUP)
            }
            // Back once the notice has been on screen and gone again.
            guard screen.shown.count >= 3 || attempts > 8 else { throw .notFound("no depth camera") }
            return FakeDevice()
        }
        #expect(camera != nil)
        #expect(screen.shown == ["NO CAMERA", "3 BACKDROPS IN", "NO CAMERA"])
        #expect(loop.reloadPending)
        #expect(notices.takeCarried().map(\.text) == ["3 BACKDROPS IN"])
        #expect(notices.takeNew().isEmpty)
    }

    /// A failed import's outcome is shown too, but it switched nothing: no reload is left pending.
    @Test func failedImportDuringTheCameraWaitLeavesNoReload() throws {
        let data = TemporaryDirectory("runtime-import-failed")
        let signals = try SignalChannel()
        let loop = try RuntimeLoop(signals: signals, service: ServiceLink(notifier: try ServiceNotifier(notifySocket: nil, ownPID: 0)))
        let screen = FakeScreen()
        let notices = ImportNoticeWatch(configPath: data.path + "/current/backdrop.conf")
        var attempts = 0
        let camera = CameraWait.open(loop: loop, signals: signals, screen: screen, notices: notices,
                                     noticeHold: nil) { () throws(CaptureError) -> FakeDevice in
            attempts += 1
            if attempts == 1 {
                do throws(SystemError) {
                    _ = try ImportNotice.write("STICK NOT READ: SEE THE LOG", status: 1, data: data.path)
                } catch {
                    Issue.record("cannot write the import's outcome: \(error.message)")
                }
                raise(SIGHUP)
            }
            guard screen.shown.count >= 2 || attempts > 8 else { throw .notFound("no depth camera") }
            return FakeDevice()
        }
        #expect(camera != nil)
        #expect(screen.shown == ["NO CAMERA", "STICK NOT READ: SEE THE LOG"])
        #expect(!loop.reloadPending)
        #expect(notices.takeCarried().isEmpty)
    }

    @Test func sighupWithoutNewsDuringTheCameraWaitIsKept() throws {
        let signals = try SignalChannel()
        let loop = try RuntimeLoop(signals: signals, service: ServiceLink(notifier: try ServiceNotifier(notifySocket: nil, ownPID: 0)))
        let screen = FakeScreen()
        var attempts = 0
        let camera = CameraWait.open(loop: loop, signals: signals, screen: screen,
                                     notices: ImportNoticeWatch(configPath: "/nowhere/backdrop.conf"),
                                     noticeHold: nil) { () throws(CaptureError) -> FakeDevice in
            attempts += 1
            if attempts == 1 {
                raise(SIGHUP)
                throw .notFound("no depth camera")
            }
            return FakeDevice()
        }
        #expect(camera != nil)
        #expect(loop.reloadPending)
        #expect(screen.shown == ["NO CAMERA"])
    }
}
