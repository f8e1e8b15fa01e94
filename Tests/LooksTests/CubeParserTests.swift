import Testing
@testable import Looks

/// The .cube format's edge cases read, and hostile files refused with their line.
@Suite struct CubeParserTests {
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// A 3D table of `size` with a smooth non-linear function at each node, written as a .cube.
    static func cubeText(size: Int, lineEnd: String = "\n", header: String = "",
                         _ f: (Double, Double, Double) -> (Double, Double, Double)) -> String {
        var text = header + "LUT_3D_SIZE \(size)" + lineEnd
        let last = Double(size - 1)
        for b in 0..<size {
            for g in 0..<size {
                for r in 0..<size {
                    let v = f(Double(r) / last, Double(g) / last, Double(b) / last)
                    text += "\(v.0) \(v.1) \(v.2)" + lineEnd
                }
            }
        }
        return text
    }

    static func warm(_ r: Double, _ g: Double, _ b: Double) -> (Double, Double, Double) {
        (r * r * 0.3 + r * 0.7, (g + r * 0.1) / 1.1, b * b)
    }

    @Test func readsTitleCommentsDomainAndCRLF() throws {
        let text = "# made by hand\r\nTITLE \"Warm # not a comment\"\r\n\r\nDOMAIN_MIN 0 0 0\r\nDOMAIN_MAX 1.0 1.0 1.0\r\n"
            + "LUT_3D_SIZE 2\r\n# the data\r\n0 0 0\r\n1 0 0\r\n0 1 0\r\n1 1 0\r\n0 0 1\r\n1 0 1\r\n0 1 1\r\n  1\t1 1  \r\n"
        let table = try CubeParser.parse(Self.bytes(text))
        #expect(table.title == "Warm # not a comment")
        #expect(table.size == 2 && !table.isOneDimensional)
        #expect(table.values.count == 24)
        #expect(table.hasUnitDomain)
        #expect(Array(table.values[3..<6]) == [1, 0, 0])
    }

    @Test func reads1DWithDomainAndExponents() throws {
        let table = try CubeParser.parse(Self.bytes("LUT_1D_SIZE 3\nDOMAIN_MIN 0 0 0\nDOMAIN_MAX 2 2 2\n0 0 0\n5e-1 2.5E-1 .125\n1 1 1e0\n"))
        #expect(table.isOneDimensional && table.size == 3)
        #expect(table.apply1D(1, channel: 0) == 0.5)
        #expect(table.apply1D(1, channel: 2) == 0.125)
        #expect(abs(table.apply1D(0.5, channel: 1) - 0.125) < 1e-7)
        #expect(table.apply1D(4, channel: 0) == 1)
    }

    @Test(arguments: [2, 3, 17, 33, 65])
    func sizesTwoToSixtyFiveRead(_ size: Int) throws {
        let table = try CubeParser.parse(Self.bytes(Self.cubeText(size: size) { ($0, $1, $2) }))
        #expect(table.size == size)
        #expect(table.values.count == 3 * size * size * size)
        let lookup = try #require(ColourLookup.fold([.cube(table)]))
        #expect(lookup.form == .lattice(size: size))
        for v in stride(from: 0, through: 255, by: 17) {
            #expect(lookup.apply(red: UInt8(v), green: UInt8(255 - v), blue: 7) == SIMD3(UInt8(v), UInt8(255 - v), 7))
        }
    }

    /// Applying a 3D table matches tetrahedral interpolation written here in Double, within 1
    /// level, over a dense grid of colours.
    @Test(arguments: [5, 17, 33])
    func appliedCubeMatchesATetrahedralReference(_ size: Int) throws {
        let table = try CubeParser.parse(Self.bytes(Self.cubeText(size: size, Self.warm)))
        let lookup = try #require(ColourLookup.fold([.cube(table)]))
        let last = Double(size - 1)
        func node(_ i: Int, _ j: Int, _ k: Int) -> [Double] {
            let v = Self.warm(Double(i) / last, Double(j) / last, Double(k) / last)
            return [v.0, v.1, v.2]
        }
        var worst = 0.0
        for r in stride(from: 0, through: 255, by: 3) {
            for g in stride(from: 0, through: 255, by: 5) {
                for b in stride(from: 0, through: 255, by: 7) {
                    let p = [Double(r) / 255 * last, Double(g) / 255 * last, Double(b) / 255 * last]
                    let cell = p.map { min(Int($0), size - 2) }
                    let f = zip(p, cell).map { $0 - Double($1) }
                    // Walk from the cell's origin along axes by decreasing fraction.
                    let order = [0, 1, 2].sorted { f[$0] > f[$1] || (f[$0] == f[$1] && $0 < $1) }
                    var corner = cell
                    var want = node(corner[0], corner[1], corner[2]).map { $0 * (1 - f[order[0]]) }
                    for (n, axis) in order.enumerated() {
                        corner[axis] += 1
                        let weight = f[axis] - (n < 2 ? f[order[n + 1]] : 0)
                        let c = node(corner[0], corner[1], corner[2])
                        for i in 0..<3 { want[i] += c[i] * weight }
                    }
                    let got = lookup.apply(red: UInt8(r), green: UInt8(g), blue: UInt8(b))
                    let gotValues = [Double(got.x), Double(got.y), Double(got.z)]
                    for i in 0..<3 { worst = max(worst, abs(gotValues[i] - min(max(want[i], 0), 1) * 255)) }
                }
            }
        }
        #expect(worst <= 1, "size \(size): worst \(worst) levels")
    }

    /// Each hostile file and the line its refusal names.
    static let hostile: [(name: String, text: [UInt8], line: Int)] = [
        ("size above 65", bytes("LUT_3D_SIZE 66\n"), 1),
        ("huge size", bytes("# big\nLUT_3D_SIZE 4000000000000\n"), 2),
        ("size 1", bytes("LUT_3D_SIZE 1\n0 0 0\n"), 1),
        ("1D size above 4096", bytes("LUT_1D_SIZE 4097\n"), 1),
        ("NaN", bytes("LUT_3D_SIZE 2\n0 0 0\nnan 0 0\n"), 3),
        ("NaN in a later column", bytes("LUT_3D_SIZE 2\n0 0 0\n0 NaN 0\n"), 3),
        ("inf", bytes("LUT_3D_SIZE 2\n0 0 0\n0 inf 0\n"), 3),
        ("out of range", bytes("LUT_3D_SIZE 2\n0 0 1e30\n"), 2),
        ("exponent overflow", bytes("LUT_3D_SIZE 2\n0 0 1e999\n"), 2),
        ("truncated", bytes("LUT_3D_SIZE 2\n0 0 0\n1 0 0\n0 1"), 4),
        ("too few entries", bytes("LUT_3D_SIZE 2\n0 0 0\n1 0 0\n"), 3),
        ("too many entries", bytes(cubeText(size: 2) { ($0, $1, $2) } + "0 0 0\n"), 10),
        ("four numbers", bytes("LUT_1D_SIZE 2\n0 0 0 0\n"), 2),
        ("binary", [0x4C, 0x55, 0x54, 0x00, 0x01, 0xFF, 0x0A], 1),
        ("high byte outside comment", bytes("LUT_1D_SIZE 2\n0 0 0\n1 1 1\u{00E9}\n"), 3),
        ("data before size", bytes("0 0 0\nLUT_3D_SIZE 2\n"), 1),
        ("keyword after data", bytes("LUT_1D_SIZE 2\n0 0 0\nTITLE \"late\"\n1 1 1\n"), 3),
        ("both sizes", bytes("LUT_1D_SIZE 2\nLUT_3D_SIZE 2\n"), 2),
        ("size twice", bytes("LUT_3D_SIZE 2\nLUT_3D_SIZE 2\n"), 2),
        ("domain inverted", bytes("DOMAIN_MIN 0 0 0\nDOMAIN_MAX 1 0 1\nLUT_1D_SIZE 2\n0 0 0\n1 1 1\n"), 2),
        ("domain two numbers", bytes("DOMAIN_MIN 0 0\n"), 1),
        ("title unquoted", bytes("TITLE warm\n"), 1),
        ("unknown keyword", bytes("LUT_3D_SIZE 2\nGAMMA 2.2\n"), 2),
        ("not a number", bytes("LUT_1D_SIZE 2\n0 0 0x1\n"), 2),
        ("two points", bytes("LUT_1D_SIZE 2\n0 0 1.2.3\n"), 2),
        ("long line", bytes("LUT_1D_SIZE 2\n0 0 " + String(repeating: "0", count: 2000) + "\n"), 2),
        ("empty", [], 0),
        ("comments only", bytes("# nothing\n\n"), 0),
    ]

    @Test(arguments: 0..<hostile.count)
    func hostileFileRefusedWithItsLine(_ index: Int) {
        let (name, text, line) = Self.hostile[index]
        do {
            let table = try CubeParser.parse(text)
            Issue.record("\(name): read as a table of size \(table.size)")
        } catch {
            #expect(error.line == line, "\(name): \(error)")
            #expect(!error.reason.isEmpty)
        }
    }

    @Test func fileOverTheByteLimitIsRefusedBeforeReading() {
        let big = [UInt8](repeating: UInt8(ascii: "#"), count: CubeParser.maxBytes + 1)
        #expect(throws: LookFileError.self) { try CubeParser.parse(big) }
    }

    @Test func numbers() {
        func n(_ s: String) -> Double? { NumberSyntax.decimal(Array(s.utf8)[...]) }
        #expect(n("1e-05") == 1e-05)
        #expect(n(".5") == 0.5)
        #expect(n("+1.") == 1)
        #expect(n("-0.25") == -0.25)
        #expect(n("0.1234567890123456789012") == 0.12345678901234568)
        #expect(n("1.2.3") == nil)
        #expect(n("e5") == nil)
        #expect(n("1e") == nil)
        #expect(n("1e100") == nil)
        #expect(n("-") == nil)
        #expect(n("0x10") == nil)
    }
}
