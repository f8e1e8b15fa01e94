import Looks

/// The bytes as a stick's .cube file, then as its looks file (with the cube, when it parsed,
/// beside it as "a.cube"); every look that parses is folded and applied to a row of colours,
/// as the import and the backdrop worker would.
enum LooksHarness {
    static func run(_ bytes: UnsafeRawBufferPointer) {
        let input = Array(bytes)
        var cubes: [String: CubeTable] = [:]
        do {
            let table = try CubeParser.parse(input)
            precondition(table.size >= 2 && table.size <= (table.isOneDimensional ? CubeParser.max1DSize : CubeParser.max3DSize))
            for value in table.values { precondition(value.isFinite && abs(value) <= 16, "an unchecked value") }
            cubes["a.cube"] = table
            exercise([.cube(table)])
        } catch {
            precondition(error.line >= 0 && !error.reason.isEmpty, "a refusal without a reason")
        }
        do {
            for look in try LooksFile.parse(input, cubes: cubes) { exercise(look.steps) }
        } catch {
            precondition(error.line >= 0 && !error.reason.isEmpty, "a refusal without a reason")
        }
    }

    private static func exercise(_ steps: [LookStep]) {
        var row: [UInt32] = [0, 0x00FF_FFFF, 0x0080_4020, 0xFF12_3456, 0x00FF_0000, 0x0000_FF00, 0x0000_00FF]
        if let lookup = ColourLookup.fold(steps) {
            row.withUnsafeMutableBytes { lookup.apply(words: $0.baseAddress!, from: 0, to: $0.count / 4) }
        }
        row.withUnsafeMutableBytes { SpatialPass.apply(steps, to: $0.baseAddress!, width: 7, height: 1, rowBytes: 28) }
    }
}
