import Booth
import Controls
import Testing

/// The look gesture (the shutter held long): the next look and its name for 2 s, like a backdrop
/// switch; ignored while people pose for a photo or nothing is seen.
@Suite struct LookGestureTests {
    static func ns(_ ms: UInt64) -> UInt64 { ms * 1_000_000 }

    static func press(_ booth: inout BoothMachine, _ intent: ButtonIntent, atMS ms: UInt64) -> [BoothAction] {
        var got: [BoothAction] = []
        booth.handle(.button(intent), at: ns(ms)) { got.append($0) }
        return got
    }

    @Test func longShutterInLiveSwitchesTheLookAndShowsItsName() {
        var booth = BoothMachine(configuration: BoothConfiguration(countdownSeconds: 3))
        let got = Self.press(&booth, .nextLook, atMS: 1000)
        #expect(got == [.switchLook, .showMessage(.lookName, until: Self.ns(3000)), .armDeadline(at: Self.ns(3000))])
        #expect(booth.state == .live)
        #expect(BoothMessage.lookName.text(backdropName: "sunset", lookName: "sepia") == "LOOK: sepia")
    }

    @Test func lookGestureDuringTheCountdownIsIgnored() {
        var booth = BoothMachine(configuration: BoothConfiguration(countdownSeconds: 3))
        _ = Self.press(&booth, .takePhoto, atMS: 1000)
        #expect(Self.press(&booth, .nextLook, atMS: 1500) == [])
    }

    @Test func lookGestureWhileCapturingIsIgnored() {
        var booth = BoothMachine(configuration: BoothConfiguration(countdownSeconds: 0))
        _ = Self.press(&booth, .takePhoto, atMS: 1000)
        #expect(Self.press(&booth, .nextLook, atMS: 1010) == [])
    }

    @Test func lookGestureWithTheDisplayAwayIsIgnored() {
        var booth = BoothMachine(configuration: BoothConfiguration(countdownSeconds: 3))
        booth.handle(.deviceLost(.display), at: Self.ns(500)) { _ in }
        #expect(Self.press(&booth, .nextLook, atMS: 1000) == [])
    }
}
