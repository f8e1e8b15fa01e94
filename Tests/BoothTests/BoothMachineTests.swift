import Booth
import Controls
import Testing

/// Feeds inputs (times in milliseconds) and records every action, one transition per test.
private struct Harness {
    var booth: BoothMachine
    var actions: [BoothAction] = []

    init(countdown: Int = 3) {
        booth = BoothMachine(configuration: BoothConfiguration(countdownSeconds: countdown))
    }

    /// The actions of this one input.
    @discardableResult
    mutating func send(_ input: BoothInput, atMS ms: UInt64) -> [BoothAction] {
        var got: [BoothAction] = []
        booth.handle(input, at: ms * 1_000_000) { got.append($0) }
        actions += got
        return got
    }

    @discardableResult
    mutating func press(_ intent: ButtonIntent, atMS ms: UInt64) -> [BoothAction] { send(.button(intent), atMS: ms) }

    /// Runs a photo from the shutter to the captured frame (countdown 0 or stepped through).
    mutating func takeToSaving(atMS ms: UInt64) {
        press(.takePhoto, atMS: ms)
        var t = ms
        while case .countdown = booth.state {
            t += 1000
            send(.timer, atMS: t)
        }
        send(.frameCaptured, atMS: t + 10)
    }
}

private func ns(_ ms: UInt64) -> UInt64 { ms * 1_000_000 }

@Suite struct BoothMachineTests {
    // MARK: live

    @Test func startsLiveWithNothingPending() {
        let booth = BoothMachine()
        #expect(booth.state == .live)
        #expect(booth.nextDeadline == nil)
        #expect(!booth.showsMatte)
    }

    @Test func nextInLiveSwitchesAndShowsTheNameForTwoSeconds() {
        var h = Harness()
        let got = h.press(.nextBackdrop, atMS: 1000)
        #expect(got == [.switchBackdrop(.next), .showMessage(.backdropName, until: ns(3000)), .armDeadline(at: ns(3000))])
        #expect(h.booth.state == .live)
    }

    @Test func previousInLiveSwitchesBack() {
        var h = Harness()
        let got = h.press(.previousBackdrop, atMS: 1000)
        #expect(got.first == .switchBackdrop(.previous))
        #expect(got.contains(.showMessage(.backdropName, until: ns(3000))))
    }

    @Test func aSecondSwitchShowsTheNewNameAndMovesTheDeadline() {
        var h = Harness()
        h.press(.nextBackdrop, atMS: 1000)
        let got = h.press(.nextBackdrop, atMS: 1500)
        #expect(got == [.switchBackdrop(.next), .showMessage(.backdropName, until: ns(3500)), .armDeadline(at: ns(3500))])
    }

    @Test func theNameLeavesWhenItsTimeIsUp() {
        var h = Harness()
        h.press(.nextBackdrop, atMS: 1000)
        #expect(h.send(.timer, atMS: 2999) == [])
        #expect(h.send(.timer, atMS: 3000) == [.clearMessage, .disarmDeadline])
        #expect(h.booth.nextDeadline == nil)
    }

    @Test func shutterInLiveStartsTheCountdown() {
        var h = Harness(countdown: 3)
        let got = h.press(.takePhoto, atMS: 1000)
        #expect(got == [.showMessage(.countdown(3), until: nil), .armDeadline(at: ns(2000))])
        #expect(h.booth.state == .countdown(remaining: 3))
    }

    @Test func shutterWithoutCountdownCapturesAtOnce() {
        var h = Harness(countdown: 0)
        let got = h.press(.takePhoto, atMS: 1000)
        #expect(got == [.captureShownFrame])
        #expect(h.booth.state == .capturing)
    }

    @Test func longNextInLiveShowsTheMatte() {
        var h = Harness()
        #expect(h.press(.toggleMatteView, atMS: 1000) == [.setMatteView(true)])
        #expect(h.booth.state == .matteView)
        #expect(h.booth.showsMatte)
    }

    // MARK: countdown

    @Test func countdownStepsOncePerSecond() {
        var h = Harness(countdown: 3)
        h.press(.takePhoto, atMS: 1000)
        #expect(h.send(.timer, atMS: 1999) == [])
        #expect(h.send(.timer, atMS: 2000) == [.showMessage(.countdown(2), until: nil), .armDeadline(at: ns(3000))])
        #expect(h.booth.state == .countdown(remaining: 2))
    }

    @Test func countdownAtZeroClearsTheDigitsThenCaptures() {
        var h = Harness(countdown: 2)
        h.press(.takePhoto, atMS: 1000)
        h.send(.timer, atMS: 2000)
        // The digits go first, so the frame captured is the picture without them.
        #expect(h.send(.timer, atMS: 3000) == [.clearMessage, .captureShownFrame, .disarmDeadline])
        #expect(h.booth.state == .capturing)
    }

    @Test func aLateTimerTakesEveryStepThatFellDue() {
        var h = Harness(countdown: 3)
        h.press(.takePhoto, atMS: 1000)
        // The loop woke 2.5 s late: two steps are due; ticks keep their one-second grid.
        #expect(h.send(.timer, atMS: 3500) == [.showMessage(.countdown(1), until: nil), .armDeadline(at: ns(4000))])
    }

    @Test func buttonsDuringTheCountdownAreIgnored() {
        var h = Harness(countdown: 3)
        h.press(.takePhoto, atMS: 1000)
        #expect(h.press(.nextBackdrop, atMS: 1100) == [])
        #expect(h.press(.previousBackdrop, atMS: 1200) == [])
        #expect(h.press(.toggleMatteView, atMS: 1300) == [])
        #expect(h.press(.takePhoto, atMS: 1400) == [])
        #expect(h.booth.state == .countdown(remaining: 3))
    }

    @Test func theCountdownHidesATransientMessageWhoseDeadlineStaysArmed() {
        var h = Harness(countdown: 1)
        h.press(.nextBackdrop, atMS: 1000)         // name until 3000
        h.press(.takePhoto, atMS: 1100)             // countdown 1, tick at 2100
        #expect(h.actions.suffix(2) == [.showMessage(.countdown(1), until: nil), .armDeadline(at: ns(2100))])
        // Capturing shows nothing; after the save the name's time is over.
        #expect(h.send(.timer, atMS: 2100) == [.clearMessage, .captureShownFrame, .armDeadline(at: ns(3000))])
    }

    @Test func cameraLostDuringTheCountdownCancelsIt() {
        var h = Harness(countdown: 3)
        h.press(.takePhoto, atMS: 1000)
        let got = h.send(.deviceLost(.camera), atMS: 1500)
        #expect(got == [.startReopening(.camera), .showMessage(.cameraDisconnected, until: nil), .disarmDeadline])
        #expect(h.booth.state == .cameraAway)
        h.send(.deviceBack(.camera), atMS: 5000)
        #expect(h.booth.state == .live)
    }

    @Test func displayLostDuringTheCountdownCancelsIt() {
        var h = Harness(countdown: 3)
        h.press(.takePhoto, atMS: 1000)
        #expect(h.send(.deviceLost(.display), atMS: 1500) == [.startReopening(.display), .clearMessage, .disarmDeadline])
        #expect(h.booth.state == .displayAway)
        // Back: the photo is not taken behind people's backs; the screen says it was cancelled.
        #expect(h.send(.deviceBack(.display), atMS: 3000)
                == [.showMessage(.text("PHOTO CANCELLED: PRESS AGAIN"), until: ns(8000)), .armDeadline(at: ns(8000))])
        #expect(h.booth.state == .live)
        #expect(h.send(.timer, atMS: 8000) == [.clearMessage, .disarmDeadline])
        #expect(h.send(.deviceLost(.display), atMS: 9000) == [.startReopening(.display)])
        #expect(h.send(.deviceBack(.display), atMS: 9500) == [], "said once, for the countdown it cancelled")
    }

    // MARK: capturing

    @Test func frameCapturedStartsTheEncode() {
        var h = Harness(countdown: 0)
        h.press(.takePhoto, atMS: 1000)
        #expect(h.send(.frameCaptured, atMS: 1040) == [.startEncode])
        #expect(h.booth.state == .saving)
    }

    @Test func captureFailureSaysWhy() {
        var h = Harness(countdown: 0)
        h.press(.takePhoto, atMS: 1000)
        let got = h.send(.photoFailed(reason: "the display did not deliver the capture"), atMS: 3000)
        #expect(got == [.showMessage(.photoFailed("the display did not deliver the capture"), until: ns(8000)),
                        .armDeadline(at: ns(8000))])
        #expect(h.booth.state == .live)
    }

    @Test func backdropButtonsWhileCapturingAreIgnored() {
        var h = Harness(countdown: 0)
        h.press(.takePhoto, atMS: 1000)
        #expect(h.press(.nextBackdrop, atMS: 1010) == [])
        #expect(h.press(.takePhoto, atMS: 1020) == [])
        #expect(h.press(.toggleMatteView, atMS: 1030) == [])
    }

    @Test func cameraLostWhileCapturingKeepsTheCaptureGoing() {
        var h = Harness(countdown: 0)
        h.press(.takePhoto, atMS: 1000)
        // The frame to copy is the one on screen, not the camera's: the capture still completes.
        #expect(h.send(.deviceLost(.camera), atMS: 1010) == [.startReopening(.camera)])
        #expect(h.send(.frameCaptured, atMS: 1020) == [.startEncode, .showMessage(.cameraDisconnected, until: nil)])
    }

    // MARK: saving

    @Test func photoSavedSaysSoForTwoSeconds() {
        var h = Harness(countdown: 0)
        h.takeToSaving(atMS: 1000)
        let got = h.send(.photoSaved, atMS: 1500)
        #expect(got == [.showMessage(.photoSaved, until: ns(3500)), .armDeadline(at: ns(3500))])
        #expect(h.booth.state == .live)
    }

    @Test func photoFailedWhileSavingSaysWhy() {
        var h = Harness(countdown: 0)
        h.takeToSaving(atMS: 1000)
        let got = h.send(.photoFailed(reason: "disk full"), atMS: 1500)
        #expect(got.first == .showMessage(.photoFailed("disk full"), until: ns(6500)))
        #expect(h.booth.state == .live)
    }

    @Test func backdropsSwitchWhileSaving() {
        var h = Harness(countdown: 0)
        h.takeToSaving(atMS: 1000)
        #expect(h.press(.nextBackdrop, atMS: 1100).first == .switchBackdrop(.next))
        #expect(h.booth.state == .saving)
    }

    @Test func shutterWhileSavingIsIgnored() {
        var h = Harness(countdown: 0)
        h.takeToSaving(atMS: 1000)
        #expect(h.press(.takePhoto, atMS: 1100) == [])
        #expect(h.booth.state == .saving)
    }

    @Test func photoSavedWhileTheCameraIsAwayShowsThenReturnsToTheNotice() {
        var h = Harness(countdown: 0)
        h.takeToSaving(atMS: 1000)
        h.send(.deviceLost(.camera), atMS: 1100)
        #expect(h.booth.state == .cameraAway)
        #expect(h.send(.photoSaved, atMS: 1200) == [.showMessage(.photoSaved, until: ns(3200)), .armDeadline(at: ns(3200))])
        #expect(h.send(.timer, atMS: 3200) == [.showMessage(.cameraDisconnected, until: nil), .disarmDeadline])
    }

    @Test func workerResultsWithoutAPhotoChangeNothing() {
        var h = Harness()
        #expect(h.send(.frameCaptured, atMS: 1000) == [])
        #expect(h.send(.photoSaved, atMS: 1001) == [])
        #expect(h.send(.photoFailed(reason: "x"), atMS: 1002) == [])
        #expect(h.booth.state == .live)
    }

    // MARK: matte view

    @Test func longNextInMatteViewReturnsToLive() {
        var h = Harness()
        h.press(.toggleMatteView, atMS: 1000)
        #expect(h.press(.toggleMatteView, atMS: 2000) == [.setMatteView(false)])
        #expect(h.booth.state == .live)
    }

    @Test func shutterInMatteViewExplainsInsteadOfTakingAPhoto() {
        var h = Harness()
        h.press(.toggleMatteView, atMS: 1000)
        let got = h.press(.takePhoto, atMS: 2000)
        #expect(got == [.showMessage(.text("MATTE VIEW: HOLD NEXT TO LEAVE IT FIRST"), until: ns(7000)), .armDeadline(at: ns(7000))])
        #expect(h.booth.state == .matteView)
    }

    @Test func backdropsSwitchInMatteView() {
        var h = Harness()
        h.press(.toggleMatteView, atMS: 1000)
        #expect(h.press(.previousBackdrop, atMS: 2000).first == .switchBackdrop(.previous))
        #expect(h.booth.state == .matteView)
    }

    @Test func matteViewSurvivesTheCameraGoingAway() {
        var h = Harness()
        h.press(.toggleMatteView, atMS: 1000)
        h.send(.deviceLost(.camera), atMS: 2000)
        #expect(h.press(.toggleMatteView, atMS: 2100) == [])
        h.send(.deviceBack(.camera), atMS: 3000)
        #expect(h.booth.state == .matteView)
    }

    // MARK: camera view

    @Test func longPreviousInLiveShowsTheCameraAndAgainReturnsToLive() {
        var h = Harness()
        // No caption on the way in, as for the matte view: the picture itself says where it is.
        #expect(h.press(.toggleCameraView, atMS: 1000) == [.setCameraView(true)])
        #expect(h.booth.state == .cameraView)
        #expect(h.booth.showsCamera)
        #expect(!h.booth.showsMatte)
        #expect(h.press(.toggleCameraView, atMS: 2000) == [.setCameraView(false)])
        #expect(h.booth.state == .live)
        #expect(!h.booth.showsCamera)
    }

    @Test func theCameraViewFromTheMatteViewTurnsTheMatteOffFirst() {
        var h = Harness()
        h.press(.toggleMatteView, atMS: 1000)
        #expect(h.press(.toggleCameraView, atMS: 2000) == [.setMatteView(false), .setCameraView(true)])
        #expect(h.booth.state == .cameraView)
        #expect(!h.booth.showsMatte)
        // Leaving it goes back to the composite, not to the matte view it replaced.
        #expect(h.press(.toggleCameraView, atMS: 3000) == [.setCameraView(false)])
        #expect(h.booth.state == .live)
    }

    @Test func theMatteViewFromTheCameraViewTurnsTheCameraOffFirst() {
        var h = Harness()
        h.press(.toggleCameraView, atMS: 1000)
        #expect(h.press(.toggleMatteView, atMS: 2000) == [.setCameraView(false), .setMatteView(true)])
        #expect(h.booth.state == .matteView)
        #expect(!h.booth.showsCamera)
        #expect(h.press(.toggleMatteView, atMS: 3000) == [.setMatteView(false)])
        #expect(h.booth.state == .live)
    }

    @Test func shutterInTheCameraViewExplainsInsteadOfTakingAPhoto() {
        var h = Harness(countdown: 0)
        h.press(.toggleCameraView, atMS: 1000)
        let got = h.press(.takePhoto, atMS: 2000)
        #expect(got == [.showMessage(.text("CAMERA VIEW: HOLD PREVIOUS TO LEAVE IT FIRST"), until: ns(7000)),
                        .armDeadline(at: ns(7000))])
        #expect(h.booth.state == .cameraView)
    }

    @Test func shutterInTheCameraViewDuringAnImportIsRefusedToo() {
        var h = Harness(countdown: 0)
        h.press(.toggleCameraView, atMS: 1000)
        h.send(.importStarted, atMS: 1100)
        #expect(h.press(.takePhoto, atMS: 1200).first
                == .showMessage(.text("CAMERA VIEW: HOLD PREVIOUS TO LEAVE IT FIRST"), until: ns(6200)))
        #expect(h.booth.state == .importing)
    }

    @Test func backdropsSwitchInTheCameraView() {
        var h = Harness()
        h.press(.toggleCameraView, atMS: 1000)
        #expect(h.press(.previousBackdrop, atMS: 2000).first == .switchBackdrop(.previous))
        #expect(h.booth.state == .cameraView)
    }

    @Test func theCameraViewToggleIsRefusedWhereTheMatteViewsIs() {
        var counting = Harness(countdown: 3)
        counting.press(.takePhoto, atMS: 1000)
        #expect(counting.press(.toggleCameraView, atMS: 1100) == [])
        var saving = Harness(countdown: 0)
        saving.takeToSaving(atMS: 1000)
        #expect(saving.press(.toggleCameraView, atMS: 1100) == [])
        var away = Harness()
        away.send(.deviceLost(.display), atMS: 1000)
        #expect(away.press(.toggleCameraView, atMS: 1100) == [])
    }

    @Test func theCameraViewSurvivesTheCameraGoingAway() {
        var h = Harness()
        h.press(.toggleCameraView, atMS: 1000)
        #expect(h.send(.deviceLost(.camera), atMS: 2000) == [.startReopening(.camera), .showMessage(.cameraDisconnected, until: nil)])
        #expect(h.booth.state == .cameraAway)
        #expect(h.press(.toggleCameraView, atMS: 2100) == [])
        h.send(.deviceBack(.camera), atMS: 3000)
        #expect(h.booth.state == .cameraView)
        #expect(h.booth.showsCamera)
    }

    @Test func displayAwayOutranksTheCameraView() {
        var h = Harness()
        h.press(.toggleCameraView, atMS: 1000)
        h.send(.deviceLost(.display), atMS: 2000)
        #expect(h.booth.state == .displayAway)
        h.send(.deviceBack(.display), atMS: 3000)
        #expect(h.booth.state == .cameraView)
    }

    @Test func anImportOutranksTheCameraViewAndReturnsToIt() {
        var h = Harness()
        h.press(.toggleCameraView, atMS: 1000)
        #expect(h.send(.importStarted, atMS: 1100) == [.showMessage(.text("READING USB STICK"), until: nil)])
        #expect(h.booth.state == .importing)
        h.send(.importFinished(summary: "3 BACKDROPS"), atMS: 1200)
        #expect(h.booth.state == .cameraView)
    }

    @Test func cameraToggleDuringAnImportKeepsTheImportOnScreenAndTheMatteOff() {
        var h = Harness()
        h.send(.importStarted, atMS: 1000)
        h.press(.toggleMatteView, atMS: 1050)
        #expect(h.press(.toggleCameraView, atMS: 1100) == [.setMatteView(false), .setCameraView(true)])
        #expect(h.booth.state == .importing)
        h.send(.importFinished(summary: "done"), atMS: 1200)
        #expect(h.booth.state == .cameraView)
        #expect(!h.booth.showsMatte)
    }

    @Test func theRollbackGestureInTheCameraViewRollsBackAndLeavesTheViewAlone() {
        var h = Harness()
        h.press(.toggleCameraView, atMS: 1000)
        #expect(h.press(.rollback, atMS: 2000) == [.rollback, .showMessage(.text("GOING BACK TO THE PREVIOUS SET"), until: nil)])
        #expect(h.booth.state == .importing)
        h.send(.importFinished(summary: "ROLLED BACK"), atMS: 2200)
        #expect(h.booth.state == .cameraView)
    }

    // MARK: camera away

    @Test func cameraLostShowsTheNoticeAndReopens() {
        var h = Harness()
        let got = h.send(.deviceLost(.camera), atMS: 1000)
        #expect(got == [.startReopening(.camera), .showMessage(.cameraDisconnected, until: nil)])
        #expect(h.booth.state == .cameraAway)
    }

    @Test func cameraLostTwiceReopensOnce() {
        var h = Harness()
        h.send(.deviceLost(.camera), atMS: 1000)
        #expect(h.send(.deviceLost(.camera), atMS: 1100) == [])
    }

    @Test func cameraBackClearsTheNotice() {
        var h = Harness()
        h.send(.deviceLost(.camera), atMS: 1000)
        #expect(h.send(.deviceBack(.camera), atMS: 2000) == [.clearMessage])
        #expect(h.booth.state == .live)
    }

    @Test func deviceBackThatWasNeverLostChangesNothing() {
        var h = Harness()
        #expect(h.send(.deviceBack(.camera), atMS: 1000) == [])
        #expect(h.send(.deviceBack(.display), atMS: 1000) == [])
    }

    @Test func shutterWithTheCameraAwayIsIgnored() {
        var h = Harness()
        h.send(.deviceLost(.camera), atMS: 1000)
        #expect(h.press(.takePhoto, atMS: 1100) == [])
    }

    @Test func backdropsSwitchWithTheCameraAwayAndTheNoticeReturns() {
        var h = Harness()
        h.send(.deviceLost(.camera), atMS: 1000)
        #expect(h.press(.nextBackdrop, atMS: 1100) == [.switchBackdrop(.next), .showMessage(.backdropName, until: ns(3100)),
                                                     .armDeadline(at: ns(3100))])
        #expect(h.send(.timer, atMS: 3100) == [.showMessage(.cameraDisconnected, until: nil), .disarmDeadline])
    }

    // MARK: display away

    @Test func displayLostReopensIt() {
        var h = Harness()
        #expect(h.send(.deviceLost(.display), atMS: 1000) == [.startReopening(.display)])
        #expect(h.booth.state == .displayAway)
    }

    @Test func buttonsWithTheDisplayAwayAreIgnored() {
        var h = Harness()
        h.send(.deviceLost(.display), atMS: 1000)
        #expect(h.press(.nextBackdrop, atMS: 1100) == [])
        #expect(h.press(.takePhoto, atMS: 1200) == [])
        #expect(h.press(.toggleMatteView, atMS: 1300) == [])
    }

    @Test func displayBackReturnsToTheStateUnderneath() {
        var h = Harness()
        h.send(.deviceLost(.camera), atMS: 900)
        h.send(.deviceLost(.display), atMS: 1000)
        #expect(h.booth.state == .displayAway)
        #expect(h.send(.deviceBack(.display), atMS: 2000) == [])
        #expect(h.booth.state == .cameraAway)
    }

    // MARK: importing

    @Test func importStartedSaysReading() {
        var h = Harness()
        #expect(h.send(.importStarted, atMS: 1000) == [.showMessage(.text("READING USB STICK"), until: nil)])
        #expect(h.booth.state == .importing)
    }

    @Test func importProgressReplacesTheText() {
        var h = Harness()
        h.send(.importStarted, atMS: 1000)
        #expect(h.send(.importProgress("skipped sunset.tif: not a PNG or JPEG"), atMS: 1100)
                == [.showMessage(.text("skipped sunset.tif: not a PNG or JPEG"), until: nil)])
    }

    @Test func aNoticeShowsForFiveSecondsAndChangesNoState() {
        var h = Harness()
        let got = h.send(.notice("12 BACKDROPS"), atMS: 1000)
        #expect(got == [.showMessage(.text("12 BACKDROPS"), until: ns(6000)), .armDeadline(at: ns(6000))])
        #expect(h.booth.state == .live)
        #expect(h.send(.timer, atMS: 6000) == [.clearMessage, .disarmDeadline])
    }

    @Test func aNoticeDuringTheCountdownWaitsUnderTheDigits() {
        var h = Harness(countdown: 3)
        h.press(.takePhoto, atMS: 1000)
        let got = h.send(.notice("12 BACKDROPS"), atMS: 1500)
        #expect(got == [])
        #expect(h.booth.state == .countdown(remaining: 3))
        #expect(h.booth.nextDeadline == ns(2000))
    }

    @Test func aChangedCountdownAppliesFromTheNextShutter() {
        var h = Harness(countdown: 3)
        h.booth.configuration.countdownSeconds = 0
        #expect(h.press(.takePhoto, atMS: 1000) == [.captureShownFrame])
        #expect(h.booth.state == .capturing)
    }

    @Test func importFinishedShowsTheSummaryForSixSeconds() {
        var h = Harness()
        h.send(.importStarted, atMS: 1000)
        let got = h.send(.importFinished(summary: "12 backdrops, new config"), atMS: 2000)
        #expect(got == [.showMessage(.text("12 backdrops, new config"), until: ns(8000)), .armDeadline(at: ns(8000))])
        #expect(h.booth.state == .live)
        #expect(h.send(.timer, atMS: 8000) == [.clearMessage, .disarmDeadline])
    }

    @Test func importFailedShowsTheReason() {
        var h = Harness()
        h.send(.importStarted, atMS: 1000)
        let got = h.send(.importFailed(reason: "stick removed during the import; nothing changed"), atMS: 2000)
        #expect(got.first == .showMessage(.text("stick removed during the import; nothing changed"), until: ns(7000)))
        #expect(h.booth.state == .live)
    }

    @Test func importEndWithoutAnImportChangesNothing() {
        var h = Harness()
        #expect(h.send(.importFinished(summary: "x"), atMS: 1000) == [])
        #expect(h.send(.importFailed(reason: "y"), atMS: 1000) == [])
    }

    @Test func photosCanBeTakenDuringAnImport() {
        var h = Harness(countdown: 2)
        h.send(.importStarted, atMS: 1000)
        #expect(h.press(.takePhoto, atMS: 1100) == [.showMessage(.countdown(2), until: nil), .armDeadline(at: ns(2100))])
        h.send(.timer, atMS: 2100)
        #expect(h.send(.timer, atMS: 3100) == [.clearMessage, .captureShownFrame, .disarmDeadline])
        // The import's text comes back once the frame is taken.
        #expect(h.send(.frameCaptured, atMS: 3150) == [.startEncode, .showMessage(.text("READING USB STICK"), until: nil)])
        #expect(h.send(.photoSaved, atMS: 3500).first == .showMessage(.photoSaved, until: ns(5500)))
        #expect(h.send(.timer, atMS: 5500).first == .showMessage(.text("READING USB STICK"), until: nil))
        #expect(h.booth.state == .importing)
    }

    @Test func matteToggleDuringAnImportKeepsTheImportOnScreen() {
        var h = Harness()
        h.send(.importStarted, atMS: 1000)
        #expect(h.press(.toggleMatteView, atMS: 1100) == [.setMatteView(true)])
        #expect(h.booth.state == .importing)
        h.send(.importFinished(summary: "done"), atMS: 1200)
        #expect(h.booth.state == .matteView)
    }

    @Test func cameraAwayNoticeOutranksTheImportText() {
        var h = Harness()
        h.send(.importStarted, atMS: 1000)
        #expect(h.send(.deviceLost(.camera), atMS: 1100) == [.startReopening(.camera), .showMessage(.cameraDisconnected, until: nil)])
        #expect(h.send(.deviceBack(.camera), atMS: 1200) == [.showMessage(.text("READING USB STICK"), until: nil)])
    }

    // MARK: rollback

    @Test func rollbackGoesBackAndSaysSo() {
        var h = Harness()
        let got = h.send(.rollbackRequested, atMS: 1000)
        #expect(got == [.rollback, .showMessage(.text("GOING BACK TO THE PREVIOUS SET"), until: nil)])
        #expect(h.booth.state == .importing)
        h.send(.importFinished(summary: "previous set restored"), atMS: 1200)
        #expect(h.booth.state == .live)
    }

    @Test func rollbackDuringAnImportIsIgnored() {
        var h = Harness()
        h.send(.importStarted, atMS: 1000)
        #expect(h.send(.rollbackRequested, atMS: 1100) == [])
    }

    @Test func theRollbackGestureGoesBackAndSaysRolledBack() {
        var h = Harness()
        let got = h.press(.rollback, atMS: 1000)
        #expect(got == [.rollback, .showMessage(.text("GOING BACK TO THE PREVIOUS SET"), until: nil)])
        #expect(h.booth.state == .importing)
        #expect(h.send(.importFinished(summary: "ROLLED BACK"), atMS: 1200)
                == [.showMessage(.text("ROLLED BACK"), until: ns(7200)), .armDeadline(at: ns(7200))])
        #expect(h.booth.state == .live)
        #expect(h.send(.timer, atMS: 7200) == [.clearMessage, .disarmDeadline])
    }

    @Test func aRefusedRollbackSaysWhyAndChangesNothingElse() {
        var h = Harness()
        h.press(.rollback, atMS: 1000)
        #expect(h.send(.importFailed(reason: "NOT ROLLED BACK: NO PREVIOUS SET"), atMS: 1100)
                == [.showMessage(.text("NOT ROLLED BACK: NO PREVIOUS SET"), until: ns(6100)), .armDeadline(at: ns(6100))])
        #expect(h.booth.state == .live)
        #expect(!h.booth.showsMatte)
    }

    @Test func theRollbackGestureDuringAnImportOrARollbackIsIgnored() {
        var h = Harness()
        h.send(.importStarted, atMS: 1000)
        #expect(h.press(.rollback, atMS: 1100) == [])
        h.send(.importFinished(summary: "3 BACKDROPS"), atMS: 1200)
        h.press(.rollback, atMS: 1300)
        #expect(h.press(.rollback, atMS: 1400) == [], "a second gesture while the first is under way")
    }

    @Test func theRollbackGestureDuringACountdownKeepsCountingAndRollsBack() {
        var h = Harness(countdown: 3)
        h.press(.takePhoto, atMS: 1000)
        let got = h.press(.rollback, atMS: 1500)
        #expect(got.first == .rollback)
        #expect(h.booth.state == .countdown(remaining: 3), "the photo people pose for still comes")
    }

    // MARK: messages

    @Test func messageTexts() {
        #expect(BoothMessage.countdown(3).text(backdropName: "beach") == "3")
        #expect(BoothMessage.countdown(3).isLarge)
        #expect(BoothMessage.backdropName.text(backdropName: "beach") == "beach")
        #expect(!BoothMessage.backdropName.isLarge)
        #expect(BoothMessage.photoSaved.text(backdropName: "") == "PHOTO SAVED")
        #expect(BoothMessage.cameraDisconnected.text(backdropName: "") == "CAMERA DISCONNECTED")
        #expect(BoothMessage.photoFailed("disk full").text(backdropName: "") == "PHOTO NOT SAVED: disk full")
    }
}
