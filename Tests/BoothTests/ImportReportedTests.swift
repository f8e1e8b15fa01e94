import Booth
import Testing

/// An import that ran in its own process (the stick's unit) is reported to the booth after the
/// fact (`importReported`): shown whatever the state, for the summary's or a failure's time.
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
}
