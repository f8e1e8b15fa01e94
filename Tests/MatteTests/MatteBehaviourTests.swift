import Frames
import Matte
import Testing

/// Each stage of the matte on hand-drawn depth where the right answer is known exactly:
/// a 160x120 frame, wall at 3 m, a 60x60 "subject" board at 1 m.
@Suite struct MatteBehaviourTests {
    static let size = FrameSize(width: 160, height: 120)

    static func fixed(feather: Int = 0, minimumBlob: Int = 50, temporal: Int = 0) -> MatteParameters {
        var parameters = MatteParameters()
        parameters.mode = .fixed
        parameters.nearMM = 300
        parameters.farMM = 2000
        parameters.featherPixels = feather
        parameters.minimumBlobPixels = minimumBlob
        parameters.temporalPercent = temporal
        return parameters
    }

    static func board(_ canvas: DepthCanvas) {
        canvas.fill(3000)
        canvas.fill(x: 50..<110, y: 30..<90, 1000)
    }

    @Test func keepsTheBandAndDropsTheWall() throws {
        let canvas = DepthCanvas(depthSize: Self.size)
        Self.board(canvas)
        let engine = try MatteEngine(parameters: Self.fixed(), depthSize: Self.size, alphaSize: Self.size)
        canvas.process(engine)
        #expect(canvas.covered() == 60 * 60)
        #expect(canvas.covered(x: 50..<110, y: 30..<90) == 60 * 60)
    }

    @Test func fillsHolesInsideTheSubjectOnly() throws {
        let canvas = DepthCanvas(depthSize: Self.size)
        Self.board(canvas)
        canvas.fill(x: 70..<80, y: 50..<60, 0)   // enclosed by the subject
        canvas.fill(x: 10..<20, y: 10..<20, 0)   // on the wall
        canvas.fill(x: 110..<114, y: 40..<80, 0) // shadow beside the subject's right edge
        let engine = try MatteEngine(parameters: Self.fixed(), depthSize: Self.size, alphaSize: Self.size)
        canvas.process(engine)
        #expect(canvas.covered(x: 70..<80, y: 50..<60) == 100, "enclosed hole filled")
        #expect(canvas.covered(x: 10..<20, y: 10..<20) == 0, "hole in the wall stays out")
        #expect(canvas.covered(x: 110..<114, y: 40..<80) == 0, "shadow between subject and wall stays out")
        #expect(canvas.covered() == 60 * 60)
    }

    @Test func dropsSpecksSmallerThanTheMinimumBlob() throws {
        let canvas = DepthCanvas(depthSize: Self.size)
        Self.board(canvas)
        canvas.fill(x: 10..<16, y: 100..<106, 1200)  // 36 px: a speck
        canvas.fill(x: 120..<130, y: 5..<15, 1200)   // 100 px: kept
        let engine = try MatteEngine(parameters: Self.fixed(minimumBlob: 50), depthSize: Self.size, alphaSize: Self.size)
        canvas.process(engine)
        #expect(canvas.covered(x: 10..<16, y: 100..<106) == 0)
        #expect(canvas.covered(x: 120..<130, y: 5..<15) == 100)
        // The same frame with speck removal off keeps the speck: the check above is not vacuous.
        engine.update(parameters: Self.fixed(minimumBlob: 0))
        canvas.process(engine)
        #expect(canvas.covered(x: 10..<16, y: 100..<106) == 36)
    }

    @Test func fillsSmallOutOfBandIslandsInsideTheSubject() throws {
        let canvas = DepthCanvas(depthSize: Self.size)
        Self.board(canvas)
        canvas.fill(x: 60..<63, y: 40..<43, 2600)    // a bad far reading inside the subject
        let engine = try MatteEngine(parameters: Self.fixed(minimumBlob: 100), depthSize: Self.size, alphaSize: Self.size)
        canvas.process(engine)
        #expect(canvas.covered(x: 60..<63, y: 40..<43) == 9)
    }

    @Test func featherSoftensEdgesWithoutMovingThem() throws {
        let canvas = DepthCanvas(depthSize: Self.size)
        Self.board(canvas)
        let engine = try MatteEngine(parameters: Self.fixed(feather: 4), depthSize: Self.size, alphaSize: Self.size)
        canvas.process(engine)
        let covered = canvas.covered()
        #expect(covered <= 60 * 60 && covered >= 60 * 60 - 4 * 12, "only corners round off: \(covered)")
        #expect(canvas.alphaAt(50, 60) >= 128 && canvas.alphaAt(49, 60) < 128, "the 50 % line stays on the edge")
        #expect(canvas.alphaAt(109, 60) >= 128 && canvas.alphaAt(110, 60) < 128)
        #expect(canvas.alphaAt(80, 60) == 255)
        #expect(canvas.alphaAt(10, 10) == 0)
        let ramp = (44..<56).map { Int(canvas.alphaAt($0, 60)) }
        #expect(ramp == ramp.sorted(), "monotonic ramp across the left edge: \(ramp)")
        #expect(ramp.first == 0 && ramp.last == 255 && ramp.contains { $0 > 20 && $0 < 235 })
    }

    /// The feather only sums near edges; whatever it skips must be what a full separable box
    /// (edge pixels repeated, each pass normalised as the engine does) gives anyway.
    @Test(arguments: [1, 3, 8, 12])
    func featherEqualsAFullSeparableBox(radius: Int) throws {
        let alphaSize = FrameSize(width: 250, height: 190)   // not a multiple of 8, upscaled
        let canvas = DepthCanvas(depthSize: Self.size, alphaSize: alphaSize)
        canvas.fill(3000)
        var state: UInt32 = 12345
        func next(_ bound: Int) -> Int {
            state = state &* 1_664_525 &+ 1_013_904_223
            return Int(state >> 8) % bound
        }
        for _ in 0..<25 {
            let x = next(150), y = next(110)
            canvas.fill(x: x..<min(160, x + 4 + next(40)), y: y..<min(120, y + 4 + next(40)), UInt16(800 + next(800)))
        }
        let hard = try MatteEngine(parameters: Self.fixed(feather: 0, minimumBlob: 0), depthSize: Self.size,
                               alphaSize: alphaSize)
        canvas.process(hard)
        let w = alphaSize.width, h = alphaSize.height
        let binary = (0..<h).flatMap { y in (0..<w).map { Int(canvas.alphaAt($0, y)) } }
        let taps = 2 * radius + 1
        let reciprocal = (65536 + taps - 1) / taps
        var across = [Int](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                var sum = 0
                for k in -radius...radius { sum += binary[y * w + min(w - 1, max(0, x + k))] }
                across[y * w + x] = (sum * reciprocal) >> 16
            }
        }
        let soft = try MatteEngine(parameters: Self.fixed(feather: radius, minimumBlob: 0), depthSize: Self.size,
                               alphaSize: alphaSize)
        canvas.process(soft)
        var mismatches = 0
        for y in 0..<h {
            for x in 0..<w {
                var sum = 0
                for k in -radius...radius { sum += across[min(h - 1, max(0, y + k)) * w + x] }
                if (sum * reciprocal) >> 16 != Int(canvas.alphaAt(x, y)) { mismatches += 1 }
            }
        }
        #expect(mismatches == 0)
        #expect(binary.contains(255) && binary.contains(0))
    }

    @Test(arguments: [MatteParameters.Mode.fixed, .auto])
    func readsAnyDepthUnit(mode: MatteParameters.Mode) throws {
        // TUM-style depth: 5000 units per metre.
        let canvas = DepthCanvas(depthSize: Self.size)
        canvas.fill(15000)
        canvas.fill(x: 50..<110, y: 30..<90, 5000)
        var parameters = Self.fixed()
        parameters.mode = mode
        let engine = try MatteEngine(parameters: parameters, depthSize: Self.size, alphaSize: Self.size)
        canvas.process(engine, unitMM: 0.2)
        #expect(canvas.covered() == 60 * 60)
        if mode == .auto {
            #expect(engine.subjectDistanceMM.map { abs($0 - 1000) <= 32 } == true)
        }
    }

    @Test func survivesFramesTooNoisyToLabel() throws {
        // A checkerboard of subject and holes: a run per pixel, more than the labeller holds.
        // The frame is then matted per pixel (band only) instead of failing or allocating.
        let canvas = DepthCanvas(depthSize: Self.size)
        for y in 0..<Self.size.height {
            for x in 0..<Self.size.width { canvas.set(x, y, (x + y) % 2 == 0 ? 1000 : 0) }
        }
        let engine = try MatteEngine(parameters: Self.fixed(), depthSize: Self.size, alphaSize: Self.size)
        canvas.process(engine)
        #expect(engine.lastRunCount == engine.runCapacity)
        #expect(canvas.covered() == Self.size.pixelCount / 2)
        #expect(canvas.alphaAt(0, 0) == 255 && canvas.alphaAt(1, 0) == 0)
        // And the next ordinary frame is labelled again.
        Self.board(canvas)
        canvas.process(engine)
        #expect(canvas.covered() == 60 * 60)
    }

    @Test func scalesRegisteredDepthToTheAlphaSize() throws {
        let canvas = DepthCanvas(depthSize: Self.size, alphaSize: FrameSize(width: 480, height: 360))
        Self.board(canvas)
        let engine = try MatteEngine(parameters: Self.fixed(), depthSize: Self.size, alphaSize: canvas.alpha.size)
        canvas.process(engine)
        #expect(canvas.covered() == 180 * 180)
        #expect(canvas.covered(x: 150..<330, y: 90..<270) == 180 * 180)
    }

    @Test func reprojectsUnregisteredDepthIntoTheColourImage() throws {
        // Same intrinsics, colour camera 60 mm to the depth camera's right: a board 1 m away
        // appears fx * 60 / 1000 = 12 px further left in colour.
        let camera = DepthProjection.Pinhole(fx: 200, fy: 200, cx: 79.5, cy: 59.5)
        let projection = DepthProjection(depth: camera, colour: camera, translationMM: SIMD3<Float>(60, 0, 0))
        let canvas = DepthCanvas(depthSize: Self.size)
        Self.board(canvas)
        let engine = try MatteEngine(parameters: Self.fixed(), depthSize: Self.size, alphaSize: Self.size,
                                 projection: projection)
        canvas.process(engine)
        #expect(abs(canvas.coveredCentreX() - (79.5 - 12)) < 0.6, "centre \(canvas.coveredCentreX())")
        #expect(canvas.covered(x: 38..<98, y: 30..<90) >= 60 * 60 - 60)
        #expect(canvas.covered(x: 100..<160, y: 0..<120) == 0)
        // Registered, the same depth stays put: the shift above is the projection's doing.
        let plain = try MatteEngine(parameters: Self.fixed(), depthSize: Self.size, alphaSize: Self.size)
        canvas.process(plain)
        #expect(abs(canvas.coveredCentreX() - 79.5) < 0.01)
    }

    @Test func updateTakesNewThresholdsWithoutRebuilding() throws {
        let canvas = DepthCanvas(depthSize: Self.size)
        Self.board(canvas)
        let engine = try MatteEngine(parameters: Self.fixed(), depthSize: Self.size, alphaSize: Self.size)
        canvas.process(engine)
        #expect(canvas.covered() == 3600)
        var closer = Self.fixed()
        closer.farMM = 800
        engine.update(parameters: closer)
        #expect(engine.parameters.farMM == 800)
        canvas.process(engine)
        #expect(canvas.covered() == 0, "the board at 1 m is now beyond the band")
        var auto = Self.fixed()
        auto.mode = .auto
        engine.update(parameters: auto)
        #expect(engine.subjectDistanceMM == nil)
        canvas.process(engine)
        #expect(canvas.covered() == 3600)
        #expect(engine.subjectDistanceMM.map { abs($0 - 1000) <= 32 } == true)
    }

    @Test func autoModeFollowsTheSubjectWithHysteresis() throws {
        let canvas = DepthCanvas(depthSize: Self.size)
        var parameters = Self.fixed()
        parameters.mode = .auto
        parameters.hysteresisMM = 80
        parameters.marginMM = 250
        let engine = try MatteEngine(parameters: parameters, depthSize: Self.size, alphaSize: Self.size)
        canvas.fill(3000)
        canvas.fill(x: 50..<110, y: 30..<90, 1200)
        canvas.process(engine)
        let start = engine.subjectDistanceMM ?? -1
        #expect(abs(start - 1200) <= 32)
        // Jitter inside the dead band leaves the far edge alone.
        for (frame, mm) in [1230, 1180, 1240, 1170, 1210].enumerated() {
            canvas.fill(x: 50..<110, y: 30..<90, UInt16(mm))
            canvas.process(engine)
            #expect(engine.subjectDistanceMM == start, "frame \(frame)")
        }
        // A real step back is followed at once, to within half the dead band.
        canvas.fill(x: 50..<110, y: 30..<90, 1600)
        canvas.process(engine)
        #expect(abs((engine.subjectDistanceMM ?? 0) - 1600) <= 40 + 32)
        #expect(canvas.covered() == 3600)
        // Nobody within reach: after the grace period the matte clears.
        canvas.fill(3000)
        for _ in 0..<20 { canvas.process(engine) }
        #expect(engine.subjectDistanceMM == nil)
        #expect(canvas.covered() == 0)
    }

    @Test func autoModeKeepsASubjectThatFillsTheRegionButNeverTakesTheBackWall() throws {
        let canvas = DepthCanvas(depthSize: Self.size)
        var parameters = Self.fixed()
        parameters.mode = .auto
        let engine = try MatteEngine(parameters: parameters, depthSize: Self.size, alphaSize: Self.size)
        // An empty booth: only the back wall. It is not a subject.
        canvas.fill(2500)
        for _ in 0..<3 { canvas.process(engine) }
        #expect(engine.subjectDistanceMM == nil)
        #expect(canvas.covered() == 0)
        // Someone steps in, then comes so close that they fill the whole frame.
        canvas.fill(x: 50..<110, y: 30..<120, 1000)
        canvas.process(engine)
        #expect(engine.subjectDistanceMM.map { abs($0 - 1000) <= 32 } == true)
        canvas.fill(950)
        canvas.process(engine)
        #expect(engine.subjectDistanceMM.map { abs($0 - 1000) <= 80 } == true)
        #expect(canvas.covered() == Self.size.pixelCount)
        // They leave: the wall alone is dropped after the grace period.
        canvas.fill(2500)
        for _ in 0..<20 { canvas.process(engine) }
        #expect(engine.subjectDistanceMM == nil)
        #expect(canvas.covered() == 0)
    }

    /// Auto mode keeps everyone in the booth area (issue 12): both people, whatever their order
    /// in depth, each as a whole region; a few pixels of noise nearer still are no one.
    @Test func autoModeKeepsEverySubstantialSubjectNotOnlyTheNearest() throws {
        let canvas = DepthCanvas(depthSize: Self.size)
        var parameters = Self.fixed()
        parameters.mode = .auto
        parameters.minimumBlobPixels = 10
        let engine = try MatteEngine(parameters: parameters, depthSize: Self.size, alphaSize: Self.size)
        canvas.fill(3000)
        canvas.fill(x: 30..<70, y: 30..<110, 1500)   // nearer person
        canvas.fill(x: 90..<130, y: 20..<110, 2200)  // person behind
        canvas.fill(x: 78..<80, y: 60..<62, 700)     // 4 px of noise nearer still
        canvas.process(engine)
        #expect(engine.subjectDistanceMM.map { abs($0 - 1500) <= 32 } == true)
        #expect(canvas.covered(x: 30..<70, y: 30..<110) == 40 * 80)
        #expect(canvas.covered(x: 90..<130, y: 20..<110) == 40 * 90)
        #expect(canvas.covered(x: 76..<82, y: 58..<64) == 0)
        #expect(canvas.covered() == 40 * 80 + 40 * 90)
    }
}
