import Foundation
import Testing
@testable import Looks

/// .cube files written by an independent producer (colour-science from PyPI, by
/// tests/looks/colour-science-cubes.py; committed in Fixtures/) read the same as the tables this
/// test builds from the same functions, and apply the same.
@Suite struct CubeProducerTests {
    static func fixture(_ name: String, file: String = #filePath) throws -> [UInt8] {
        let folder = URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent("Fixtures")
        return [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    @Test func warm3DReadsAsTheTestsOwnTable() throws {
        let theirs = try CubeParser.parse(try Self.fixture("colour-warm-17.cube"))
        let ours = try CubeParser.parse(Array(CubeParserTests.cubeText(size: 17, CubeParserTests.warm).utf8))
        #expect(theirs.title == "warm from colour-science")
        #expect(theirs.size == 17 && !theirs.isOneDimensional && theirs.hasUnitDomain)
        let worst = zip(theirs.values, ours.values).map { abs($0 - $1) }.max() ?? 1
        #expect(worst < 1e-6, "values differ by \(worst)")
        let a = try #require(ColourLookup.fold([.cube(theirs)]))
        let b = try #require(ColourLookup.fold([.cube(ours)]))
        for r in stride(from: 0, through: 255, by: 15) {
            for g in stride(from: 0, through: 255, by: 15) {
                for blue in stride(from: 0, through: 255, by: 15) {
                    #expect(a.apply(red: UInt8(r), green: UInt8(g), blue: UInt8(blue))
                            == b.apply(red: UInt8(r), green: UInt8(g), blue: UInt8(blue)))
                }
            }
        }
    }

    @Test func curve1DWithItsDomainReads() throws {
        let table = try CubeParser.parse(try Self.fixture("colour-curve-64.cube"))
        #expect(table.isOneDimensional && table.size == 64)
        #expect(table.domainMax == SIMD3(repeating: 2))
        // The producer's curves: (x / 2), sqrt(x / 2), (x / 2)^2 sampled at 64 points of 0...2.
        for i in 0..<64 {
            let x = 2 * Double(i) / 63
            let want = [x / 2, (x / 2).squareRoot(), (x / 2) * (x / 2)]
            for c in 0..<3 { #expect(abs(Double(table.values[3 * i + c]) - want[c]) < 1e-6) }
        }
        // Linear between entries: the middle of entries 31 and 32 of the red curve (a line) is exact.
        #expect(abs(table.apply1D(1, channel: 0) - 0.5) < 1e-6)
        #expect(ColourLookup.fold([.cube(table)])!.form == .channels)
    }

    @Test func identityLeavesEveryColour() throws {
        let table = try CubeParser.parse(try Self.fixture("colour-identity-9.cube"))
        let lookup = try #require(ColourLookup.fold([.cube(table)]))
        #expect(lookup.form == .lattice(size: 9))
        for v in 0...255 {
            let level = UInt8(v)
            #expect(lookup.apply(red: level, green: 255 - level, blue: level / 2) == SIMD3(level, 255 - level, level / 2))
        }
    }
}
