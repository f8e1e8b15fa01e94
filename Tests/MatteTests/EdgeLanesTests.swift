@_spi(Testing) import Frames
@testable import Matte
import Scenes
import Testing

/// The lane form of ColourEdges' decision (EdgeLanes) against the scalar formula, input by input,
/// and whole mattes decided both ways: the vectorised matte must be the same bytes.
@Suite struct EdgeLanesTests {
    /// A small deterministic generator (xorshift), so a failure repeats.
    struct Noise {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int32 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Int32(state % UInt64(bound))
        }
    }

    /// A lane's alpha against the formula's (nil: undecided, -1 in the lane), counting what was
    /// decided and how much of it partial, so each test can show it was not vacuous.
    struct Tally {
        var decided = 0
        var partial = 0

        /// False after recording the first mismatch, so a broken solve reports once, not per lane.
        mutating func compare(_ got: Int32, _ expected: UInt8?, _ label: String) -> Bool {
            #expect(got == (expected.map { Int32($0) } ?? -1), "\(label)")
            guard got == (expected.map { Int32($0) } ?? -1) else { return false }
            if let expected {
                decided += 1
                if expected > 0 && expected < 255 { partial += 1 }
            }
            return true
        }
    }

    /// Counts 0 to 3 through the general solve.
    @Test func lanesEqualTheScalarFormulaForEveryKindOfInput() throws {
        let lanes = try EdgeLanes(capacity: 1000)
        var noise = Noise(state: 0x9E37_79B9_7F4A_7C15)
        var tally = Tally()
        for round in 0..<400 {
            // Some rounds at the extremes: sums of 0 and 255 only, counts up to 3.
            let extreme = round % 4 == 0
            func channel(_ count: Int32) -> Int32 {
                var sum: Int32 = 0
                for _ in 0..<count { sum += extreme ? 255 * noise.next(2) : noise.next(256) }
                return sum
            }
            let count = 1 + Int(noise.next(1000))
            for k in 0..<count {
                let sn = noise.next(4)
                let gn = noise.next(4)
                lanes.subjectCount[k] = sn
                lanes.groundCount[k] = gn
                lanes.subjectR[k] = channel(sn)
                lanes.subjectG[k] = channel(sn)
                lanes.subjectB[k] = channel(sn)
                lanes.groundR[k] = channel(gn)
                lanes.groundG[k] = channel(gn)
                lanes.groundB[k] = channel(gn)
                lanes.colourR[k] = channel(1)
                lanes.colourG[k] = channel(1)
                lanes.colourB[k] = channel(1)
            }
            lanes.solve(count: count)
            for k in 0..<count {
                let expected = ColourEdges.alpha(
                    subject: SIMD3(lanes.subjectR[k], lanes.subjectG[k], lanes.subjectB[k]),
                    subjectCount: lanes.subjectCount[k],
                    ground: SIMD3(lanes.groundR[k], lanes.groundG[k], lanes.groundB[k]),
                    groundCount: lanes.groundCount[k],
                    colour: SIMD3(lanes.colourR[k], lanes.colourG[k], lanes.colourB[k]))
                if !tally.compare(lanes.alpha[k], expected, "round \(round) lane \(k)") { return }
            }
        }
        // Not vacuous: many inputs decided, many of them partial.
        #expect(tally.decided > 5_000 && tally.partial > 2_500, "decided \(tally.decided), partial \(tally.partial)")
    }

    /// One subject and one background sample shared by the whole run (ColourEdges' runs decided
    /// from their two ends), through the solve that works out their contrast once.
    @Test func sharedPairEqualsTheScalarFormula() throws {
        let lanes = try EdgeLanes(capacity: 1000)
        var noise = Noise(state: 0x2545_F491_4F6C_DD1D)
        var tally = Tally()
        var alike = 0
        for round in 0..<600 {
            let extreme = round % 4 == 0
            func channel() -> Int32 { extreme ? 255 * noise.next(2) : noise.next(256) }
            let subject = SIMD3(channel(), channel(), channel())
            let ground = SIMD3(channel(), channel(), channel())
            let count = 1 + Int(noise.next(200))
            for k in 0..<count {
                lanes.colourR[k] = channel()
                lanes.colourG[k] = channel()
                lanes.colourB[k] = channel()
            }
            let contrasted = Int(EdgeLanes.contrast(subject: subject, ground: ground)) >= ColourEdges.minimumContrast
            if contrasted { lanes.solve(count: count, subject: subject, ground: ground) } else { alike += 1 }
            for k in 0..<count {
                let expected = ColourEdges.alpha(subject: subject, subjectCount: 1, ground: ground, groundCount: 1,
                                                 colour: SIMD3(lanes.colourR[k], lanes.colourG[k], lanes.colourB[k]))
                guard contrasted else {
                    #expect(expected == nil, "round \(round): alike, yet the formula decides")
                    break
                }
                if !tally.compare(lanes.alpha[k], expected, "round \(round) lane \(k)") { return }
            }
        }
        #expect(tally.decided > 2_000 && tally.partial > 1_000 && alike > 10,
                "decided \(tally.decided), partial \(tally.partial), alike \(alike)")
    }

    /// GroupScene moving, registered and not, YUYV and RGB: the same alpha from both paths.
    @Test(arguments: [true, false])
    func vectorisedMatteIsTheScalarMatte(registered: Bool) throws {
        let size = FrameSize(width: 320, height: 240)
        let scene = registered ? GroupScene(colourSize: size) : GroupScene.unregistered(colourSize: size)
        let projection = registered ? nil : DepthProjection(depth: scene.depthCamera, colour: scene.colourCamera,
                                                            translationMM: scene.colourOffsetMM)
        for format in [PixelFormat.rgb24, .yuyv] {
            let vector = try MatteEngine(parameters: MatteParameters(), depthSize: scene.depthSize, alphaSize: size,
                                     projection: projection)
            let scalar = try MatteEngine(parameters: MatteParameters(), depthSize: scene.depthSize, alphaSize: size,
                                     projection: projection)
            scalar.vectorisedEdges = false
            let rgb = PixelBuffer(format: .rgb24, size: size)
            let colour = PixelBuffer(format: format, size: size)
            let depth = PixelBuffer(format: .z16, size: scene.depthSize)
            let a = PixelBuffer(format: .alpha8, size: size)
            let b = PixelBuffer(format: .alpha8, size: size)
            var partial = 0
            for frame in 0..<6 {
                scene.render(frame: frame, color: rgb.view, depth: depth.view, truth: nil)
                if format == .yuyv { TestColour.yuyv(from: rgb.view, into: colour.view) } else {
                    TestColour.copy(rgb.view, into: colour.view)
                }
                vector.process(depth: depth.view, unitMM: 1, colour: colour.view, into: a.view)
                scalar.process(depth: depth.view, unitMM: 1, colour: colour.view, into: b.view)
                var differing = 0
                for y in 0..<size.height {
                    let p = a.row(y).assumingMemoryBound(to: UInt8.self)
                    let q = b.row(y).assumingMemoryBound(to: UInt8.self)
                    for x in 0..<size.width {
                        if p[x] != q[x] { differing += 1 }
                        if p[x] > 0 && p[x] < 255 { partial += 1 }
                    }
                }
                #expect(differing == 0, "\(format) frame \(frame): \(differing) pixels differ")
            }
            #expect(partial > 1000, "\(format): only \(partial) edge pixels")
        }
    }
}

/// Colour-frame helpers for the tests: a plain copy, and RGB to YUYV (BT.601 limited range,
/// chroma of the pair's first pixel), enough to drive the YUYV reading path.
enum TestColour {
    static func copy(_ from: ImageView, into to: ImageView) {
        for y in 0..<from.size.height {
            to.row(y).copyMemory(from: UnsafeRawPointer(from.row(y)), byteCount: from.size.width * 3)
        }
    }

    static func yuyv(from rgb: ImageView, into out: ImageView) {
        for y in 0..<rgb.size.height {
            let s = rgb.row(y).assumingMemoryBound(to: UInt8.self)
            let d = out.row(y).assumingMemoryBound(to: UInt8.self)
            for x in 0..<rgb.size.width {
                let r = Int(s[3 * x]), g = Int(s[3 * x + 1]), b = Int(s[3 * x + 2])
                let luma = 16 + (66 * r + 129 * g + 25 * b + 128) >> 8
                d[2 * x] = UInt8(min(235, max(16, luma)))
                if x % 2 == 0 {
                    d[2 * x + 1] = UInt8(min(240, max(16, 128 + (-38 * r - 74 * g + 112 * b + 128) >> 8)))
                    d[2 * x + 3] = UInt8(min(240, max(16, 128 + (112 * r - 94 * g - 18 * b + 128) >> 8)))
                }
            }
        }
    }
}
