import Testing
@testable import Looks

@Suite struct LooksFileTests {
    @Test func readsLooksWithTargetsBuiltInsAndCubes() throws {
        let curve = try CubeParser.parse(Array("LUT_1D_SIZE 2\n0 0 0\n1 0.5 1\n".utf8))
        let text = "# mine\r\ndusk = tint 1 0.7 0.5 0.4, contrast 1.2\r\n\r\nfilm people = cube c.cube, fade 0.1\n"
            + "dream backdrop = soft, warm\n"
        let looks = try LooksFile.parse(Array(text.utf8), cubes: ["c.cube": curve])
        #expect(looks.map(\.name) == ["dusk", "film", "dream"])
        #expect(looks.map(\.target) == [.both, .people, .backdrop])
        #expect(looks[0].steps == [.tint(red: 1, green: 0.7, blue: 0.5, amount: 0.4), .contrast(factor: 1.2)])
        #expect(looks[1].steps == [.cube(curve), .fade(amount: 0.1)])
        #expect(looks[2].steps == BuiltInLooks.named("soft")!.steps + BuiltInLooks.named("warm")!.steps)
    }

    static let refused: [(String, Int)] = [
        ("a = mono\nb = sparkle\n", 2),
        ("a = contrast 9\n", 1),
        ("a = contrast\n", 1),
        ("a = posterize 2.5\n", 1),
        ("a = mono\na = noir\n", 2),
        ("a sideways = mono\n", 1),
        ("# x\nno equals here\n", 2),
        ("a = mono,, noir\n", 1),
        ("a/b = mono\n", 1),
        ("a = cube missing.cube\n", 1),
        ("a = mono\u{7}\n", 1),
        ("a = exposure nan\n", 1),
    ]

    @Test(arguments: 0..<refused.count)
    func refusedWithItsLine(_ index: Int) {
        let (text, line) = Self.refused[index]
        do {
            let looks = try LooksFile.parse(Array(text.utf8), cubes: [:])
            Issue.record("\(text): read as \(looks.map(\.name))")
        } catch {
            #expect(error.line == line, "\(text): \(error)")
        }
    }

    @Test func aLookHasAtMostThirtyTwoSteps() {
        let chain = Array(repeating: "invert", count: 33).joined(separator: ", ")
        #expect(throws: LookFileError.self) { try LookSpec.steps(chain) }
        #expect((try? LookSpec.steps(Array(repeating: "invert", count: 32).joined(separator: ", ")))?.count == 32)
    }
}
