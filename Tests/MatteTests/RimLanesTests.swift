@testable import Matte
import Testing

/// The lane form of the decontamination's correction (RimLanes) against the per-pixel formula it
/// replaced, input by input; RimPatchTests compares whole decontaminated frames with a full-frame
/// reference.
@Suite struct RimLanesTests {
    /// RimDecontamination.correct as it was before the lanes (scalar, one division per pixel): the
    /// colour `i` with the background share swapped for the subject's; nil where F and B are too
    /// alike.
    static func referenceCorrection(subject f: SIMD3<Int32>, ground b: SIMD3<Int32>, own i: SIMD3<Int32>,
                                    ycbcr: Bool) -> SIMD3<Int32>? {
        func shown(_ c: SIMD3<Int32>) -> SIMD3<Int32> {
            let luma = c.x &* 74 &+ ((c.x &* 66) &>> 7) &- 1160
            let u = c.y &- 128
            let v = c.z &- 128
            func channel(_ fixed: Int32) -> Int32 { min(max(fixed &>> 6, 0), 255) }
            return SIMD3(channel(luma &+ v &* 102), channel(luma &- u &* 25 &- v &* 52), channel(luma &+ u &* 129))
        }
        let fm = ycbcr ? shown(f) : f
        let bm = ycbcr ? shown(b) : b
        let im = ycbcr ? shown(i) : i
        let dm = fm &- bm
        let contrast = (dm &* dm).wrappedSum()
        guard contrast >= Int32(ColourEdges.minimumContrast) else { return nil }
        let along = min(contrast, max(0, ((im &- bm) &* dm).wrappedSum()))
        let share = ((contrast - along) << 12) / contrast
        let d = f &- b
        let shifted = i &+ ((d &* share) &>> 12)
        return SIMD3<Int32>(min(255, max(0, shifted.x)), min(255, max(0, shifted.y)), min(255, max(0, shifted.z)))
    }

    @Test(arguments: [false, true])
    func lanesEqualTheScalarFormulaForEveryKindOfInput(ycbcr: Bool) {
        let storage = UnsafeMutablePointer<Int32>.allocate(capacity: RimLanes.storageCount(capacity: 700))
        defer { storage.deallocate() }
        let lanes = RimLanes(storage: storage, capacity: 700)
        var noise = EdgeLanesTests.Noise(state: 0x2545_F491_4F6C_DD1D)
        var corrected = 0
        var refused = 0
        for round in 0..<600 {
            // Some rounds at the extremes (channels 0 or 255, or one step from them), some with
            // subject and background a few levels apart (around the contrast threshold).
            let kind = round % 4
            func channel() -> Int32 {
                switch kind {
                case 0: return 255 * noise.next(2)
                case 1: return [0, 1, 254, 255, 128, 127][Int(noise.next(6))]
                default: return noise.next(256)
                }
            }
            let count = 1 + Int(noise.next(700))
            var inputs: [(SIMD3<Int32>, SIMD3<Int32>, SIMD3<Int32>)] = []
            for k in 0..<count {
                let f = SIMD3(channel(), channel(), channel())
                var b = SIMD3(channel(), channel(), channel())
                if kind == 3 {
                    b = SIMD3(min(255, f.x &+ noise.next(30)), max(0, f.y &- noise.next(30)), f.z)
                }
                let i = SIMD3(channel(), channel(), channel())
                inputs.append((f, b, i))
                lanes.set(k, subject: f, ground: b, own: i, ycbcr: ycbcr)
            }
            lanes.solve(count: count, ycbcr: ycbcr)
            for k in 0..<count {
                let expected = Self.referenceCorrection(subject: inputs[k].0, ground: inputs[k].1, own: inputs[k].2,
                                                        ycbcr: ycbcr)
                let want = expected.map { $0.x | ($0.y << 8) | ($0.z << 16) } ?? -1
                #expect(lanes.result[k] == want, "round \(round) lane \(k): \(inputs[k])")
                if lanes.result[k] != want { return }
                if expected == nil { refused += 1 } else { corrected += 1 }
            }
        }
        // Both outcomes were exercised.
        #expect(corrected > 10_000 && refused > 1_000, "\(corrected) corrected, \(refused) refused")
    }

    /// Every share the division can give, 0...4096, at the largest and smallest contrasts: the
    /// float quotient corrected to the exact integer one.
    @Test func shareIsTheExactQuotientAtTheContrastsEnds() {
        let storage = UnsafeMutablePointer<Int32>.allocate(capacity: RimLanes.storageCount(capacity: 256 * 4))
        defer { storage.deallocate() }
        let lanes = RimLanes(storage: storage, capacity: 256 * 4)
        for (f, b) in [(SIMD3<Int32>(255, 255, 255), SIMD3<Int32>(0, 0, 0)), (SIMD3<Int32>(24, 0, 0), SIMD3<Int32>(0, 0, 0)),
                       (SIMD3<Int32>(0, 200, 13), SIMD3<Int32>(255, 0, 250))] {
            var inputs: [SIMD3<Int32>] = []
            for r in 0..<256 {
                for g in stride(from: 0, to: 256, by: 64) { inputs.append(SIMD3<Int32>(Int32(r), Int32(g), Int32(255 - r))) }
            }
            for ycbcr in [false, true] {
                for (k, i) in inputs.enumerated() { lanes.set(k, subject: f, ground: b, own: i, ycbcr: ycbcr) }
                lanes.solve(count: inputs.count, ycbcr: ycbcr)
                for (k, i) in inputs.enumerated() {
                    let expected = Self.referenceCorrection(subject: f, ground: b, own: i, ycbcr: ycbcr)
                    let want = expected.map { $0.x | ($0.y << 8) | ($0.z << 16) } ?? -1
                    #expect(lanes.result[k] == want, "\(f) \(b) \(i) ycbcr \(ycbcr)")
                }
            }
        }
    }

    /// The lanes' float form of the compositor's Y Cb Cr to R G B (RimLanes.shown) gives the
    /// integer form's bytes for every Y, Cb and Cr.
    @Test func shownInFloatsIsTheIntegerConversionForEveryColour() {
        func channel(_ fixed: Int32) -> Int32 { min(max(fixed &>> 6, 0), 255) }
        var mismatches = 0
        for y in Int32(0)..<256 {
            let luma = y &* 74 &+ ((y &* 66) &>> 7) &- 1160
            for cb in Int32(0)..<256 {
                let u = cb &- 128
                for cr in stride(from: Int32(0), to: 256, by: 4) {
                    let crs = SIMD4<Int32>(cr, cr + 1, cr + 2, cr + 3)
                    let (r, g, b) = RimLanes.shown(SIMD4(repeating: y), SIMD4(repeating: cb), crs)
                    for k in 0..<4 {
                        let v = crs[k] &- 128
                        if r[k] != Float(channel(luma &+ v &* 102)) || g[k] != Float(channel(luma &- u &* 25 &- v &* 52))
                            || b[k] != Float(channel(luma &+ u &* 129)) {
                            mismatches += 1
                        }
                    }
                }
            }
        }
        #expect(mismatches == 0)
    }

    /// The references worked out four lanes at a time from parked colours (setColours, then
    /// referFromColours, as the searched pixels take them) equal those `set` works out one lane at
    /// a time, from any first lane.
    @Test(arguments: [false, true])
    func referencesFromColoursEqualThoseSetOneByOne(ycbcr: Bool) {
        let capacity = 64
        let storage = UnsafeMutablePointer<Int32>.allocate(capacity: 2 * RimLanes.storageCount(capacity: capacity))
        defer { storage.deallocate() }
        let one = RimLanes(storage: storage, capacity: capacity)
        let four = RimLanes(storage: storage + RimLanes.storageCount(capacity: capacity), capacity: capacity)
        var noise = EdgeLanesTests.Noise(state: 0x9E37_79B9_7F4A_7C15)
        for round in 0..<2000 {
            let first = Int(noise.next(8))
            let end = first + 1 + Int(noise.next(capacity - 8))
            for k in first..<end {
                func colour() -> (Int32, Int32, Int32) {
                    round % 3 == 0 ? (255 * noise.next(2), 255 * noise.next(2), 255 * noise.next(2))
                        : (noise.next(256), noise.next(256), noise.next(256))
                }
                let f = colour(), b = colour(), i = colour()
                one.set(k, subject: f, ground: b, own: i, ycbcr: ycbcr)
                four.setColours(k, subject: f, ground: b, own: i)
            }
            four.referFromColours(from: first, to: end, ycbcr: ycbcr)
            for k in first..<end {
                let same = one.raw0[k] == four.raw0[k] && one.raw1[k] == four.raw1[k] && one.raw2[k] == four.raw2[k]
                    && one.shown0[k] == four.shown0[k] && one.shown1[k] == four.shown1[k] && one.shown2[k] == four.shown2[k]
                    && one.contrast[k] == four.contrast[k] && one.groundDot[k] == four.groundDot[k]
                #expect(same, "round \(round) lane \(k)")
                if !same { return }
            }
        }
    }
}
