import CKernel
import Controls
import KernelIO
import Testing
@testable import Buttons

/// Against gpio-sim on the virtual board: tests/vboard/buttons.sh makes a sim chip whose lines are
/// named for the three roles and passes its sysfs folder (where each line's pull is driven) in
/// BACKDROP_GPIO_SIM. Skipped elsewhere.
private let simFolder: String? = bk_getenv("BACKDROP_GPIO_SIM").map { String(cString: $0) }

@Suite(.serialized, .enabled(if: simFolder != nil, "no gpio-sim chip (BACKDROP_GPIO_SIM unset; runs on the virtual board: tests/vboard/buttons.sh)"))
struct ButtonPanelDeviceTests {
    private let names: [ButtonRole: (line: String, offset: Int)] = [
        .next: ("BACKDROP_NEXT", 0), .previous: ("BACKDROP_PREV", 1), .shutter: ("BACKDROP_SHUTTER", 2),
    ]

    /// The sim's lines idle low (pull-down); a press is the pull going up, so active high here.
    private func panel(debounceMS: Int) throws -> ButtonPanel {
        var wiring = ButtonWiring(activeLow: false, bias: .asIs)
        for (role, entry) in names { wiring.setLine(role, .named(entry.line)) }
        return try ButtonPanel(wiring: wiring, debounceMS: debounceMS, consumer: "backdrop-test")
    }

    private func drive(_ role: ButtonRole, pressed: Bool) {
        let path = "\(simFolder!)/sim_gpio\(names[role]!.offset)/pull"
        let fd = bk_open(path, 1 /* O_WRONLY */, 0)
        precondition(fd >= 0, "cannot open \(path)")
        let text = pressed ? "pull-up" : "pull-down"
        _ = bk_write(fd, text, text.utf8.count)
        _ = bk_close(fd)
    }

    /// Runs the I/O thread's part as the booth's loop does, for a while: waits on the fd (bounded),
    /// polls the product's ButtonControls when it is readable, and once more at the end for what
    /// fell due; collects intents. A failed read fails the test.
    private func collect(_ input: ButtonControls, settleMS: Int) throws -> [ButtonIntent] {
        var intents: [ButtonIntent] = []
        let deadline = MonotonicClock.nowNanoseconds() + UInt64(settleMS) * 1_000_000
        while MonotonicClock.nowNanoseconds() < deadline {
            if input.panel.withDescriptor({ bk_poll_readable($0, 20) }) == 1 {
                input.poll(readable: true, failed: { Issue.record("reading the edges failed: \($0.message)") }) { intent, _ in
                    intents.append(intent)
                }
            }
        }
        input.poll(readable: false, failed: { Issue.record("reading the edges failed: \($0.message)") }) { intent, _ in
            intents.append(intent)
        }
        return intents
    }

    @Test func linesAreFoundByNameAndEdgesCarryMonotonicKernelTimes() throws {
        let panel = try panel(debounceMS: 30)
        print(panel.summary)
        #expect(panel.roles == [.next, .previous, .shutter])
        #expect(try !panel.isPressed(.shutter))
        let before = MonotonicClock.nowNanoseconds()
        drive(.shutter, pressed: true)
        #expect(panel.withDescriptor { bk_poll_readable($0, 2000) } == 1)
        let after = MonotonicClock.nowNanoseconds()
        var edges: [ButtonEdge] = []
        try panel.readEdges { edges.append($0) }
        drive(.shutter, pressed: false)
        #expect(edges.count == 1)
        #expect(edges.first?.role == .shutter && edges.first?.pressed == true)
        let time = edges.first?.nanoseconds ?? 0
        #expect(time >= before && time <= after, "edge at \(time), read between \(before) and \(after)")
    }

    @Test func aPressOnNextBecomesNextBackdrop() throws {
        let input = ButtonControls(panel: try panel(debounceMS: 30), longPressMS: 800)
        drive(.next, pressed: true)
        MonotonicClock.sleep(nanoseconds: 100_000_000)
        drive(.next, pressed: false)
        #expect(try collect(input, settleMS: 300) == [.nextBackdrop])
    }

    @Test func bouncingEdgesInsideTheWindowCountOnce() throws {
        // A wide window so the burst of writes lands inside it even on a slow emulated CPU.
        let panel = try panel(debounceMS: 250)
        var classifier = ButtonClassifier(debounceMS: panel.softwareDebounceMS, longPressMS: 2000)
        // Bounces a few milliseconds apart, so the kernel sees each as its own edge.
        let bounce: UInt64 = 5_000_000
        for level in [true, false, true, false, true] { drive(.shutter, pressed: level); MonotonicClock.sleep(nanoseconds: bounce) }
        MonotonicClock.sleep(nanoseconds: 400_000_000)
        for level in [false, true, false, true, false] { drive(.shutter, pressed: level); MonotonicClock.sleep(nanoseconds: bounce) }
        MonotonicClock.sleep(nanoseconds: 300_000_000)
        var edges: [ButtonEdge] = []
        while panel.withDescriptor({ bk_poll_readable($0, 50) }) == 1 { try panel.readEdges { edges.append($0) } }
        var gestures: [ButtonGesture] = []
        for edge in edges { classifier.handle(edge) { gestures.append($0) } }
        classifier.advance(to: MonotonicClock.nowNanoseconds()) { gestures.append($0) }
        // Bounces really reached us as edges (a clean press is 2), and still made one press.
        #expect(edges.count > 2, "only \(edges.count) edges arrived")
        print("buttons: \(edges.count) edges from 10 level changes")
        #expect(gestures.map(\.kind) == [.shortPress])
        #expect(gestures.first.flatMap { ButtonIntent.forGesture($0) } == .takePhoto)
    }

    @Test func aLongPressOnNextTogglesTheMatteView() throws {
        let input = ButtonControls(panel: try panel(debounceMS: 30), longPressMS: 300)
        drive(.next, pressed: true)
        // The kernel's edge times decide the length, and a sleep never ends early.
        MonotonicClock.sleep(nanoseconds: 400_000_000)
        drive(.next, pressed: false)
        #expect(try collect(input, settleMS: 300) == [.toggleMatteView])
    }

    @Test func aLineHeldByAnotherRequestIsReportedBusy() throws {
        let first = try panel(debounceMS: 30)
        #expect(throws: ButtonError.self) { _ = try panel(debounceMS: 30) }
        _ = first
    }
}
