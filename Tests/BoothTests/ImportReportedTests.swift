import Booth
import Testing

/// An import that ran in its own process (the stick's unit) is reported to the booth after the
/// fact (`importReported`): shown whatever the state, for the summary's or a failure's time; one
/// stick's outcomes (import, photo export, unmount) one after another, each readable.
@Suite struct ImportReportedTests {
    private func send(_ booth: inout BoothMachine, _ input: BoothInput, atMS ms: UInt64) -> [BoothAction] {
        var got: [BoothAction] = []
        booth.handle(input, at: ms * 1_000_000) { got.append($0) }
        return got
    }

    @Test func anOutcomeIsShownForTheSummarysTimeWithoutAnImportStarted() {
        var booth = BoothMachine()
        let got = send(&booth, .importReported("12 BACKDROPS IN, 2 SKIPPED", failed: false), atMS: 1000)
        #expect(got == [.showMessage(.text("12 BACKDROPS IN, 2 SKIPPED"), until: 7_000_000_000), .armDeadline(at: 7_000_000_000)])
        #expect(booth.state == .live)
        #expect(send(&booth, .timer, atMS: 7000) == [.clearMessage, .disarmDeadline])
    }

    @Test func aFailureIsShownForTheFailuresTime() {
        var booth = BoothMachine()
        let got = send(&booth, .importReported("IMPORT FAILED: DISK FULL - OLD SET KEPT", failed: true), atMS: 1000)
        #expect(got.first == .showMessage(.text("IMPORT FAILED: DISK FULL - OLD SET KEPT"), until: 6_000_000_000))
    }

    @Test func underTheCountdownItWaitsForThePhoto() {
        var booth = BoothMachine(configuration: BoothConfiguration(countdownSeconds: 2))
        _ = send(&booth, .button(.takePhoto), atMS: 1000)
        let got = send(&booth, .importReported("STICK: NOTHING NEW", failed: false), atMS: 1200)
        #expect(!got.contains(.showMessage(.text("STICK: NOTHING NEW"), until: 7_200_000_000)))
        #expect(booth.state == .countdown(remaining: 2))
    }

    @Test func aStickOutcomesCanEachBeReadOneAfterAnother() {
        var booth = BoothMachine()
        #expect(send(&booth, .importReported("12 BACKDROPS IN", failed: false), atMS: 1000).first
                == .showMessage(.text("12 BACKDROPS IN"), until: 7_000_000_000))
        // The export and the unmount end within the same second: they wait their turn.
        #expect(send(&booth, .importReported("37 PHOTOS COPIED", failed: false), atMS: 1200) == [.armDeadline(at: 4_000_000_000)])
        #expect(send(&booth, .importReported("YOU CAN REMOVE THE STICK", failed: false), atMS: 1300).isEmpty)
        #expect(send(&booth, .timer, atMS: 4000)
                == [.showMessage(.text("37 PHOTOS COPIED"), until: 10_000_000_000), .armDeadline(at: 7_000_000_000)])
        #expect(send(&booth, .timer, atMS: 7000)
                == [.showMessage(.text("YOU CAN REMOVE THE STICK"), until: 13_000_000_000), .armDeadline(at: 13_000_000_000)])
        #expect(send(&booth, .timer, atMS: 13000) == [.clearMessage, .disarmDeadline])
    }

    @Test func aFailureStaysItsWholeTimeBeforeTheNextAndALateOneComesAtOnce() {
        var booth = BoothMachine()
        _ = send(&booth, .importReported("PHOTOS NOT COPIED: STICK FULL - PHOTOS KEPT ON THE BOX", failed: true), atMS: 1000)
        // Waits for the failure's own end, already the armed deadline.
        #expect(send(&booth, .importReported("YOU CAN REMOVE THE STICK", failed: false), atMS: 1100).isEmpty)
        #expect(send(&booth, .timer, atMS: 4000).isEmpty, "a failure is not replaced after the 3 s of a summary")
        #expect(send(&booth, .timer, atMS: 6000).first == .showMessage(.text("YOU CAN REMOVE THE STICK"), until: 12_000_000_000))
        // Once the last has been up 3 s, the next stick's outcome is shown when it comes.
        #expect(send(&booth, .importReported("STICK: NOTHING NEW", failed: false), atMS: 9000).first
                == .showMessage(.text("STICK: NOTHING NEW"), until: 15_000_000_000))
    }
}
