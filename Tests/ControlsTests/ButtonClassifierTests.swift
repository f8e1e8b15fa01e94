import Testing
@testable import Controls

/// Feeds synthetic edge sequences (times in milliseconds) and records every gesture.
private struct Harness {
    var classifier: ButtonClassifier
    var gestures: [ButtonGesture] = []

    init(debounceMS: Int = 30, longPressMS: Int = 800) {
        classifier = ButtonClassifier(debounceMS: debounceMS, longPressMS: longPressMS)
    }

    mutating func edge(_ role: ButtonRole, _ pressed: Bool, atMS ms: UInt64) {
        var got: [ButtonGesture] = []
        classifier.handle(ButtonEdge(role: role, pressed: pressed, nanoseconds: ms * 1_000_000)) { got.append($0) }
        gestures += got
    }

    mutating func press(_ role: ButtonRole, atMS ms: UInt64) { edge(role, true, atMS: ms) }
    mutating func release(_ role: ButtonRole, atMS ms: UInt64) { edge(role, false, atMS: ms) }

    mutating func advance(toMS ms: UInt64) {
        var got: [ButtonGesture] = []
        classifier.advance(to: ms * 1_000_000) { got.append($0) }
        gestures += got
    }

    var kinds: [ButtonGesture.Kind] { gestures.map(\.kind) }
}

@Suite struct ButtonClassifierTests {
    @Test func cleanShortPressIsOneShortPressOnRelease() {
        var h = Harness()
        h.press(.next, atMS: 1000)
        #expect(h.gestures.isEmpty)
        #expect(h.classifier.isPressed(.next))
        h.release(.next, atMS: 1120)
        #expect(h.gestures == [ButtonGesture(role: .next, kind: .shortPress, nanoseconds: 1_120_000_000,
                                             durationNanoseconds: 120_000_000)])
        #expect(!h.classifier.isPressed(.next))
    }

    @Test func bouncesInsideTheWindowCountOnce() {
        var h = Harness(debounceMS: 30)
        // Press with contact bounce: down, up, down, up, down within 12 ms.
        for (ms, level) in [(1000, true), (1003, false), (1005, true), (1009, false), (1012, true)] {
            h.edge(.shutter, level, atMS: UInt64(ms))
        }
        h.advance(toMS: 1100)
        // Release with bounce.
        for (ms, level) in [(1200, false), (1202, true), (1207, false), (1211, true), (1215, false)] {
            h.edge(.shutter, level, atMS: UInt64(ms))
        }
        h.advance(toMS: 1300)
        #expect(h.gestures.count == 1)
        #expect(h.gestures.first?.kind == .shortPress)
        #expect(h.gestures.first?.role == .shutter)
        #expect(h.gestures.first?.durationNanoseconds == 200_000_000)
        #expect(h.classifier.nextDeadline == nil)
    }

    @Test func withoutSoftwareDebounceEveryEdgeCounts() {
        var h = Harness(debounceMS: 0)
        for (ms, level) in [(1000, true), (1003, false), (1005, true), (1009, false)] {
            h.edge(.next, level, atMS: UInt64(ms))
        }
        #expect(h.kinds == [.shortPress, .shortPress])
    }

    @Test func bounceThatSettlesOppositeIsTakenWhenTheWindowCloses() {
        var h = Harness(debounceMS: 30)
        // A tap shorter than the window: the release lands inside the lock-out.
        h.press(.previous, atMS: 500)
        h.release(.previous, atMS: 515)
        #expect(h.gestures.isEmpty)
        #expect(h.classifier.nextDeadline == 530_000_000)
        h.advance(toMS: 529)
        #expect(h.gestures.isEmpty)
        h.advance(toMS: 530)
        #expect(h.gestures == [ButtonGesture(role: .previous, kind: .shortPress, nanoseconds: 515_000_000,
                                             durationNanoseconds: 15_000_000)])
    }

    @Test func pendingSettleIsResolvedByTheNextEdgeEvenWithoutAdvance() {
        var h = Harness(debounceMS: 30)
        h.press(.next, atMS: 100)
        h.release(.next, atMS: 110)
        h.press(.next, atMS: 400)
        #expect(h.kinds == [.shortPress])
        #expect(h.classifier.isPressed(.next))
    }

    @Test func heldFiresOnceAtTheThresholdThenLongPressOnRelease() {
        var h = Harness(longPressMS: 800)
        h.press(.next, atMS: 2000)
        #expect(h.classifier.nextDeadline == 2_800_000_000)
        h.advance(toMS: 2799)
        #expect(h.gestures.isEmpty)
        h.advance(toMS: 2800)
        #expect(h.gestures == [ButtonGesture(role: .next, kind: .held, nanoseconds: 2_800_000_000,
                                             durationNanoseconds: 800_000_000)])
        h.advance(toMS: 4000)
        #expect(h.gestures.count == 1)
        #expect(h.classifier.nextDeadline == nil)
        h.release(.next, atMS: 4100)
        #expect(h.kinds == [.held, .longPress])
        #expect(h.gestures.last?.durationNanoseconds == 2_100_000_000)
    }

    @Test func longPressAtExactlyTheThresholdIsLong() {
        var h = Harness(longPressMS: 800)
        h.press(.shutter, atMS: 0 + 10)
        h.release(.shutter, atMS: 810)
        #expect(h.kinds == [.held, .longPress])
        var short = Harness(longPressMS: 800)
        short.press(.shutter, atMS: 10)
        short.release(.shutter, atMS: 809)
        #expect(short.kinds == [.shortPress])
    }

    @Test func longPressWithoutAdvanceStillReportsHeldFirst() {
        var h = Harness()
        h.press(.previous, atMS: 100)
        h.release(.previous, atMS: 1500)
        #expect(h.kinds == [.held, .longPress])
        #expect(h.gestures[0].nanoseconds == 900_000_000)
    }

    @Test func bouncyLongPressIsOneLongPress() {
        var h = Harness(debounceMS: 30, longPressMS: 800)
        for (ms, level) in [(0, true), (2, false), (4, true)] { h.edge(.next, level, atMS: UInt64(ms) + 50) }
        h.advance(toMS: 900)
        for (ms, level) in [(1000, false), (1001, true), (1003, false)] { h.edge(.next, level, atMS: UInt64(ms)) }
        h.advance(toMS: 1100)
        #expect(h.kinds == [.held, .longPress])
    }

    @Test func duplicateLevelsAreIgnored() {
        var h = Harness(debounceMS: 0)
        h.release(.next, atMS: 10)
        h.press(.next, atMS: 20)
        h.press(.next, atMS: 40)
        h.release(.next, atMS: 60)
        h.release(.next, atMS: 70)
        #expect(h.gestures == [ButtonGesture(role: .next, kind: .shortPress, nanoseconds: 60_000_000,
                                             durationNanoseconds: 40_000_000)])
    }

    @Test func linesAreDebouncedIndependently() {
        var h = Harness(debounceMS: 30)
        h.press(.next, atMS: 100)
        h.press(.shutter, atMS: 105)
        h.release(.next, atMS: 200)
        h.release(.shutter, atMS: 205)
        #expect(h.gestures.map(\.role) == [.next, .shutter])
        #expect(h.kinds == [.shortPress, .shortPress])
    }

    @Test func nextDeadlineIsTheEarliestAcrossLines() {
        var h = Harness(debounceMS: 30, longPressMS: 800)
        h.press(.next, atMS: 100)
        h.press(.shutter, atMS: 300)
        h.release(.shutter, atMS: 310)
        #expect(h.classifier.nextDeadline == 330_000_000)
        h.advance(toMS: 330)
        #expect(h.classifier.nextDeadline == 900_000_000)
    }
}

@Suite struct ButtonIntentTests {
    private func gesture(_ role: ButtonRole, _ kind: ButtonGesture.Kind) -> ButtonGesture {
        ButtonGesture(role: role, kind: kind, nanoseconds: 0, durationNanoseconds: 0)
    }

    @Test func defaultRoles() {
        #expect(ButtonIntent.forGesture(gesture(.next, .shortPress)) == .nextBackdrop)
        #expect(ButtonIntent.forGesture(gesture(.previous, .shortPress)) == .previousBackdrop)
        #expect(ButtonIntent.forGesture(gesture(.shutter, .shortPress)) == .takePhoto)
    }

    @Test func longPressOnNextTogglesTheMatteView() {
        #expect(ButtonIntent.forGesture(gesture(.next, .longPress)) == .toggleMatteView)
    }

    @Test func longPressOnPreviousTogglesTheCameraViewAndAShortOneStillGoesBack() {
        #expect(ButtonIntent.forGesture(gesture(.previous, .longPress)) == .toggleCameraView)
        #expect(ButtonIntent.forGesture(gesture(.previous, .shortPress)) == .previousBackdrop)
        #expect(ButtonIntent.forGesture(gesture(.shutter, .longPress)) == .nextLook)
        #expect(ButtonIntent.forGesture(gesture(.shutter, .shortPress)) == .takePhoto)
        #expect(ButtonIntent.toggleCameraView.name == "toggle camera view")
    }

    @Test func aLongPressOfPreviousFromTheClassifierIsTheCameraView() {
        var h = Harness(longPressMS: 800)
        h.press(.previous, atMS: 1000)
        h.advance(toMS: 1900)
        h.release(.previous, atMS: 2000)
        h.press(.previous, atMS: 3000)
        h.release(.previous, atMS: 3100)
        #expect(h.gestures.compactMap(ButtonIntent.forGesture) == [.toggleCameraView, .previousBackdrop])
    }

    @Test func heldNeverActsSoAPressFiresOneIntent() {
        for role in ButtonRole.allCases {
            #expect(ButtonIntent.forGesture(gesture(role, .held)) == nil)
        }
    }

    @Test func roleNamesRoundTrip() {
        for role in ButtonRole.allCases { #expect(ButtonRole.named(role.name) == role) }
        #expect(ButtonRole.named("select") == nil)
    }

    // MARK: the rollback chord (next and previous held together)

    @Test func nextAndPreviousHeldTogetherFiveSecondsIsBothHeldOnceAndNothingElse() {
        var h = Harness()
        h.press(.next, atMS: 1000)
        h.press(.previous, atMS: 1200)
        #expect(h.classifier.nextDeadline == 6_200_000_000, "the chord's five seconds run from the later press")
        h.advance(toMS: 6199)
        #expect(h.gestures.filter { $0.kind == .bothHeld }.isEmpty)
        h.advance(toMS: 6200)
        h.advance(toMS: 7000)
        h.release(.next, atMS: 7100)
        h.release(.previous, atMS: 7300)
        h.advance(toMS: 9000)
        // The chord, once; no held, short or long press of either (next's long-press time passed
        // inside the chord).
        #expect(h.gestures
                == [ButtonGesture(role: .next, kind: .bothHeld, nanoseconds: 6_200_000_000, durationNanoseconds: 5_000_000_000)])
        #expect(h.gestures.compactMap(ButtonIntent.forGesture) == [.rollback])
        #expect(h.classifier.nextDeadline == nil)
    }

    @Test func aChordLetGoEarlyIsNothingAtAll() {
        var h = Harness()
        h.press(.previous, atMS: 1000)
        h.press(.next, atMS: 1050)
        h.release(.previous, atMS: 4000)
        h.advance(toMS: 7000)
        h.release(.next, atMS: 7100)
        h.advance(toMS: 9000)
        #expect(h.gestures.compactMap(ButtonIntent.forGesture) == [], "no rollback, no previous backdrop, no matte view")
    }

    @Test func previousHeldPastALongPressBeforeTheChordIsARollbackNotTheCameraView() {
        var h = Harness(longPressMS: 800)
        // Previous first, long enough that its `held` is out before next joins; then the chord.
        h.press(.previous, atMS: 1000)
        h.advance(toMS: 2000)
        h.press(.next, atMS: 2500)
        h.advance(toMS: 7500)
        h.release(.previous, atMS: 7600)
        h.release(.next, atMS: 7700)
        h.advance(toMS: 9000)
        #expect(h.kinds == [.held, .bothHeld], "previous's release after the chord is no long press")
        #expect(h.gestures.compactMap(ButtonIntent.forGesture) == [.rollback])
    }

    @Test func previousHeldLongWithNextJoiningAndLetGoEarlyIsNothing() {
        var h = Harness(longPressMS: 800)
        h.press(.previous, atMS: 1000)
        h.advance(toMS: 2000)
        h.press(.next, atMS: 2500)
        // Previous let go before the chord's five seconds: no rollback and no camera view either.
        h.release(.previous, atMS: 4000)
        h.release(.next, atMS: 4100)
        h.advance(toMS: 9000)
        #expect(h.gestures.compactMap(ButtonIntent.forGesture) == [])
    }

    @Test func theShutterWithNextIsNotAChord() {
        var h = Harness()
        h.press(.next, atMS: 1000)
        h.press(.shutter, atMS: 1010)
        h.release(.shutter, atMS: 1100)
        h.release(.next, atMS: 1150)
        h.advance(toMS: 9000)
        #expect(h.gestures.compactMap(ButtonIntent.forGesture) == [.takePhoto, .nextBackdrop])
    }

    @Test func pressesAfterAChordAreOrdinaryAgain() {
        var h = Harness()
        h.press(.next, atMS: 1000)
        h.press(.previous, atMS: 1000)
        h.advance(toMS: 6000)
        h.release(.next, atMS: 6100)
        h.release(.previous, atMS: 6100)
        h.press(.previous, atMS: 7000)
        h.release(.previous, atMS: 7100)
        #expect(h.gestures.compactMap(ButtonIntent.forGesture) == [.rollback, .previousBackdrop])
    }
}
