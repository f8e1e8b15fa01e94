import Controls
import Testing
@testable import Buttons

@Suite struct ButtonBoardFileTests {
    /// The shipped board data must parse, so a typo there fails here and not on the box.
    @Test func shippedRaspberryPi4FileParses() throws {
        let url = packageRoot() + "/board/rpi4/buttons.conf"
        let text = try #require(readText(url), "board/rpi4/buttons.conf is missing")
        let wiring = try ButtonBoardFile.parse(text)
        #expect(wiring.line(.next) == .named("GPIO17"))
        #expect(wiring.line(.previous) == .named("GPIO27"))
        #expect(wiring.line(.shutter) == .named("GPIO22"))
        #expect(wiring.activeLow)
        #expect(wiring.bias == .pullUp)
    }

    @Test func commentsBlankLinesAndSpacesAreIgnored() throws {
        let wiring = try ButtonBoardFile.parse("# header\n\n  next = BTN_A  # trailing\r\nshutter=pinctrl:4\nactive_low = false\nbias = pull-down\n")
        #expect(wiring.line(.next) == .named("BTN_A"))
        #expect(wiring.line(.previous) == nil)
        #expect(wiring.line(.shutter) == .chip(label: "pinctrl", offset: 4))
        #expect(!wiring.activeLow)
        #expect(wiring.bias == .pullDown)
    }

    @Test func errorsNameTheLine() {
        #expect(throws: ButtonError.invalidBoard(line: 2, "unknown key 'select' (next, previous, shutter, active_low, bias)")) {
            try ButtonBoardFile.parse("next = A\nselect = B\n")
        }
        #expect(throws: ButtonError.invalidBoard(line: 1, "expected key = value")) {
            try ButtonBoardFile.parse("next\n")
        }
        #expect(throws: ButtonError.invalidBoard(line: 1, "bias is pull-up, pull-down, disabled or as-is, not 'up'")) {
            try ButtonBoardFile.parse("bias = up")
        }
        #expect(throws: ButtonError.invalidBoard(line: 1, "active_low is true or false, not 'yes'")) {
            try ButtonBoardFile.parse("active_low = yes")
        }
    }

    @Test func lineAddresses() {
        #expect(ButtonLineAddress.parse("GPIO17") == .named("GPIO17"))
        #expect(ButtonLineAddress.parse("gpio-sim.0-node0:2") == .chip(label: "gpio-sim.0-node0", offset: 2))
        // A name that merely contains a colon without a number stays a name.
        #expect(ButtonLineAddress.parse("odd:name") == .named("odd:name"))
        #expect(ButtonLineAddress.parse("") == nil)
    }

    @Test func missingLineIsReportedByName() {
        var wiring = ButtonWiring()
        wiring.setLine(.next, .named("BACKDROP_NO_SUCH_LINE_ANYWHERE"))
        #expect(throws: ButtonError.lineNotFound("BACKDROP_NO_SUCH_LINE_ANYWHERE")) {
            _ = try ButtonPanel(wiring: wiring, debounceMS: 30)
        }
    }

    @Test func shimReportsTheLibgpiodItWasBuiltAgainst() {
        #expect(ButtonPanel.libraryVersion.hasPrefix("1.") || ButtonPanel.libraryVersion.hasPrefix("2."))
    }
}
