import Testing
@testable import Looks

/// The folded lookup against the chain applied step by step (`StepReference.chain`): within 1
/// level over every grey level and a dense grid of colours (every 5th level per channel,
/// 52^3 colours, plus the grid's odd neighbours).
@Suite struct FoldTests {
    static let grid: [UInt8] = {
        var levels: [UInt8] = []
        for v in stride(from: 0, through: 255, by: 5) { levels.append(UInt8(v)) }
        for v in [1, 2, 3, 127, 128, 129, 254] { levels.append(UInt8(v)) }
        return levels
    }()

    /// Largest difference in levels between the lookup and the step-by-step chain.
    static func worstError(_ steps: [LookStep]) -> Double {
        guard let lookup = ColourLookup.fold(steps) else { return .infinity }
        var worst = 0.0
        func check(_ r: UInt8, _ g: UInt8, _ b: UInt8) {
            let got = lookup.apply(red: r, green: g, blue: b)
            let want = StepReference.chain(steps, r, g, b)
            worst = max(worst, abs(Double(got.x) - want.0), abs(Double(got.y) - want.1), abs(Double(got.z) - want.2))
        }
        for v in 0...255 { check(UInt8(v), UInt8(v), UInt8(v)) }
        for r in grid { for g in grid { for b in grid { check(r, g, b) } } }
        return worst
    }

    @Test(arguments: ColourStepTests.steps)
    func singleStepFoldsWithinOneLevel(_ step: LookStep) {
        let worst = Self.worstError([step])
        #expect(worst <= 1, "\(step): worst \(worst) levels")
    }

    @Test(arguments: BuiltInLooks.all.filter { look in look.steps.contains { $0.isColour } })
    func builtInLookFoldsWithinOneLevel(_ look: Look) {
        let worst = Self.worstError(look.steps)
        #expect(worst <= 1, "\(look.name): worst \(worst) levels")
    }

    static let tenSteps: [LookStep] = [
        .exposure(stops: 0.25), .contrast(factor: 1.2), .saturation(factor: 1.3), .sepia(amount: 0.3),
        .tint(red: 1, green: 0.9, blue: 0.7, amount: 0.2), .fade(amount: 0.1), .vintage, .saturation(factor: 0.9),
        .contrast(factor: 1.1), .exposure(stops: -0.25),
    ]

    @Test func tenStepChainFoldsWithinOneLevelAtOneStepsCost() {
        #expect(Self.worstError(Self.tenSteps) <= 1)
        let ten = ColourLookup.fold(Self.tenSteps)!
        let one = ColourLookup.fold([.vintage])!
        #expect(ten.form == .lattice(size: 33))
        #expect(ten.form == one.form)
        #expect(ten.tableBytes == one.tableBytes)
    }

    @Test func chainsAfterALumaMapFoldIntoTheGradient() {
        let steps: [LookStep] = [.exposure(stops: 0.5), .contrast(factor: 1.2), .thermal, .saturation(factor: 1.2), .fade(amount: 0.1)]
        #expect(ColourLookup.fold(steps)!.form == .gradient)
        #expect(Self.worstError(steps) <= 1)
    }

    @Test func formsFollowTheChainsShape() {
        #expect(ColourLookup.fold([.contrast(factor: 1.2), .posterize(levels: 3), .invert])!.form == .channels)
        #expect(ColourLookup.fold([.mono])!.form == .gradient)
        #expect(ColourLookup.fold([.vintage])!.form == .lattice(size: 33))
        #expect(ColourLookup.fold([.sepia(amount: 1)])!.form == .affine)
        #expect(ColourLookup.fold([.saturation(factor: 1.5), .contrast(factor: 1.15), .exposure(stops: 1)])!.form == .affine)
        #expect(ColourLookup.fold([.saturation(factor: 1.5), .posterize(levels: 4)])!.form == .lattice(size: 33))
        #expect(ColourLookup.fold([.blur(radius: 2)]) == nil)
        #expect(ColourLookup.fold([]) == nil)
    }

    @Test func wordsKeepTheirFourthByte() {
        let lookup = ColourLookup.fold([.sepia(amount: 1)])!
        var words: [UInt32] = [0x7F10_2030, 0x00FF_FFFF, 0xFF00_0000]
        words.withUnsafeMutableBytes { lookup.apply(words: $0.baseAddress!, from: 0, to: 3) }
        #expect(words.map { $0 >> 24 } == [0x7F, 0x00, 0xFF])
        let white = lookup.apply(red: 255, green: 255, blue: 255)
        #expect(words[1] & 0xFF_FFFF == UInt32(white.z) | UInt32(white.y) << 8 | UInt32(white.x) << 16)
    }

    /// The affine form's vector loop and its scalar tail give the same words (rows of 8 and of 13).
    @Test func affineVectorAndTailAgree() {
        let lookup = ColourLookup.fold([.sepia(amount: 0.7), .saturation(factor: 1.4)])!
        #expect(lookup.form == .affine)
        var row: [UInt32] = (0..<13).map { UInt32($0) &* 0x0913_5A27 }
        var single = row
        row.withUnsafeMutableBytes { lookup.apply(words: $0.baseAddress!, from: 0, to: 13) }
        for i in 0..<13 { single.withUnsafeMutableBytes { lookup.apply(words: $0.baseAddress!, from: i, to: i + 1) } }
        #expect(row == single)
    }
}
