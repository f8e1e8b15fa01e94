import Testing
@testable import Settings

@Suite struct ValueSyntaxTests {
    @Test func decimalsAreReadExactly() {
        #expect(ValueSyntax.decimal("0.125") == 0.125)
        #expect(ValueSyntax.decimal("-3.5") == -3.5)
        #expect(ValueSyntax.decimal("+2") == 2)
        #expect(ValueSyntax.decimal(".5") == 0.5)
        #expect(ValueSyntax.decimal("615.25") == 615.25)
        #expect(ValueSyntax.decimal("0.1") == 0.1)
        #expect(ValueSyntax.decimal("0.001") == 0.001)
        #expect(ValueSyntax.decimal("000012.50") == 12.5)
        #expect(ValueSyntax.decimal("123456789012345") == 123_456_789_012_345)
    }

    @Test(arguments: ["", "-", "+", ".", "1e3", "nan", "inf", "1.2.3", "1-2", " 1", "1 ", "1234567890123456"])
    func nonDecimalsAreRejected(_ text: String) {
        #expect(ValueSyntax.decimal(text) == nil)
    }

    @Test func limitsPrintWithoutATrailingPointZero() {
        #expect(ValueSyntax.format(100) == "100")
        #expect(ValueSyntax.format(0.001) == "0.001")
        #expect(ValueSyntax.format(-1000) == "-1000")
    }
}
