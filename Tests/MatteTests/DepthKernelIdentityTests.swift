@_spi(Testing) import Frames
import Foundation
@testable import Matte
@_spi(Testing) import Scenes
import Testing

/// The lane kernels of the matte's depth stages (DepthSegments, RunLabeller, the temporal blend)
/// against the scalar code they replaced (the Reference... copies in this target): the same
/// bytes for random pictures, extreme ones (no reading anywhere, every reading at the maximum,
/// single pixels, odd widths, the borders) and whole scenes played through the engine, where
/// every frame's class map, mask and smoothed alpha are compared.
@Suite struct DepthKernelIdentityTests {
    /// A small deterministic generator (the tests must fail the same way every run).
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    }

    enum Picture: CaseIterable {
        case noise, blobs, allZero, allMaximum, singlePixels, steps, floorHeavy
    }

    /// Depth (packed, `width` x `height`) and floor marks for one kind of picture.
    static func picture(_ kind: Picture, width: Int, height: Int, random: inout Random) -> ([UInt16], [UInt8]) {
        var depth = [UInt16](repeating: 0, count: width * height)
        var marks = [UInt8](repeating: 0, count: width * height)
        switch kind {
        case .noise:
            for i in depth.indices { depth[i] = random.below(4) == 0 ? 0 : UInt16(random.below(65536)) }
            for i in marks.indices { marks[i] = UInt8(random.below(8) == 0 ? random.below(3) : 0) }
        case .blobs:
            // A wall, a few people-sized boxes in front with noise, holes at their edges.
            for i in depth.indices { depth[i] = UInt16(3000 + random.below(60)) }
            for _ in 0..<4 {
                let x0 = random.below(width), y0 = random.below(height)
                let w = 1 + random.below(max(1, width / 2)), h = 1 + random.below(max(1, height / 2))
                let z = 800 + random.below(2000)
                for y in y0..<min(height, y0 + h) {
                    for x in x0..<min(width, x0 + w) {
                        depth[y * width + x] = random.below(30) == 0 ? 0 : UInt16(z + random.below(40) + (x - x0) / 3)
                    }
                }
            }
            for y in (height * 3 / 4)..<height {
                for x in 0..<width where random.below(3) != 0 { marks[y * width + x] = UInt8(1 + random.below(2)) }
            }
        case .allZero:
            break
        case .allMaximum:
            for i in depth.indices { depth[i] = 65535 }
        case .singlePixels:
            for i in depth.indices where random.below(5) == 0 { depth[i] = UInt16(1 + random.below(65535)) }
        case .steps:
            // Depth steps just either side of the join tolerance, in both directions.
            for y in 0..<height {
                var z = 500 + random.below(3000)
                for x in 0..<width {
                    let far = Float(z)
                    let tolerance = Int(30 + far * far / 60_000)
                    z = max(1, min(65535, z + (random.below(2) == 0 ? 1 : -1) * (tolerance + random.below(3) - 1)))
                    depth[y * width + x] = random.below(2) == 0 ? UInt16(z) : depth[max(0, y - 1) * width + x]
                }
            }
            for i in marks.indices where random.below(20) == 0 { marks[i] = 2 }
        case .floorHeavy:
            for i in depth.indices { depth[i] = UInt16(1500 + random.below(2000)) }
            for i in marks.indices { marks[i] = UInt8(random.below(3)) }
        }
        return (depth, marks)
    }

    static let sizes = [(1, 1), (1, 9), (9, 1), (2, 2), (7, 5), (8, 8), (9, 3), (15, 11), (16, 16), (17, 13),
                        (31, 7), (33, 20), (64, 48), (101, 37), (160, 120)]

    static func mismatch(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int) -> Int? {
        for i in 0..<count where a[i] != b[i] { return i }
        return nil
    }

    @Test func segmentsMatchTheScalarSegmenterOnEveryKindOfPicture() throws {
        var random = Random(state: 12)
        for (width, height) in Self.sizes {
            let segments = try DepthSegments(width: width, height: height)
            let reference = try ReferenceDepthSegments(width: width, height: height)
            var classes = [UInt8](repeating: 9, count: width * height)
            var expected = [UInt8](repeating: 9, count: width * height)
            for kind in Picture.allCases {
                for round in 0..<3 {
                    let (depth, marks) = Self.picture(kind, width: width, height: height, random: &random)
                    let unit: Float = [1, 0.25, 4][round]
                    let minimumPixels = [1, 4, 50][round]
                    for i in marks.indices {
                        segments.floor[i] = marks[i]
                        reference.floor[i] = marks[i]
                    }
                    let ok = segments.segment(depth: depth, stride: width, unit: unit, near: 300, far: 3200,
                                              minimumPixels: minimumPixels, pixelWidthMM: 1.4, into: &classes)
                    let expectedOK = reference.segment(depth: depth, stride: width, unit: unit, near: 300, far: 3200,
                                                       minimumPixels: minimumPixels, pixelWidthMM: 1.4, into: &expected)
                    #expect(ok == expectedOK, "\(kind) \(width)x\(height) round \(round)")
                    if ok && expectedOK {
                        let at = Self.mismatch(classes, expected, count: width * height)
                        #expect(at == nil, "\(kind) \(width)x\(height) round \(round): first difference at \(at ?? -1)")
                    }
                }
            }
        }
    }

    @Test func segmentsReadOnlyTheirRowsOfAStridedPicture() throws {
        var random = Random(state: 5)
        let (width, height, stride) = (37, 21, 45)
        let segments = try DepthSegments(width: width, height: height)
        let reference = try ReferenceDepthSegments(width: width, height: height)
        let (packed, marks) = Self.picture(.blobs, width: width, height: height, random: &random)
        var depth = [UInt16](repeating: 0, count: stride * height)
        for y in 0..<height {
            for x in 0..<stride { depth[y * stride + x] = x < width ? packed[y * width + x] : UInt16(random.below(65536)) }
        }
        for i in marks.indices {
            segments.floor[i] = marks[i]
            reference.floor[i] = marks[i]
        }
        var classes = [UInt8](repeating: 9, count: width * height)
        var expected = [UInt8](repeating: 9, count: width * height)
        #expect(segments.segment(depth: depth, stride: stride, unit: 1, near: 300, far: 3200, minimumPixels: 4,
                                 pixelWidthMM: 1.4, into: &classes))
        #expect(reference.segment(depth: depth, stride: stride, unit: 1, near: 300, far: 3200, minimumPixels: 4,
                                  pixelWidthMM: 1.4, into: &expected))
        #expect(classes == expected)
    }

    @Test func labelsMatchTheScalarLabeller() throws {
        var random = Random(state: 3)
        for (width, height) in Self.sizes {
            let labeller = try RunLabeller(width: width, height: height)
            let reference = try ReferenceRunLabeller(width: width, height: height)
            var mask = [UInt8](repeating: 9, count: width * height)
            var expected = [UInt8](repeating: 9, count: width * height)
            for pattern in 0..<6 {
                var classes = [UInt8](repeating: 0, count: width * height)
                for i in classes.indices {
                    switch pattern {
                    case 0: classes[i] = UInt8(random.below(3))
                    case 1: classes[i] = 0
                    case 2: classes[i] = 2
                    case 3: classes[i] = 1
                    case 4: classes[i] = random.below(10) == 0 ? UInt8(random.below(3)) : (i % width < width / 2 ? 2 : 0)
                    default: classes[i] = (i / width + i % width / 3) % 3 == 0 ? 1 : 2
                    }
                }
                let blob = [1, 3, 20][pattern % 3]
                let ok = labeller.label(classes: classes, minimumBlob: blob, into: &mask)
                let expectedOK = reference.label(classes: classes, minimumBlob: blob, into: &expected)
                #expect(ok == expectedOK, "pattern \(pattern) \(width)x\(height)")
                if ok && expectedOK {
                    #expect(mask == expected, "pattern \(pattern) \(width)x\(height)")
                }
            }
        }
    }

    @Test func temporalBlendMatchesTheScalarBlend() {
        var random = Random(state: 9)
        for (width, height) in Self.sizes {
            for round in 0..<4 {
                let stride = width + round
                var depth = [UInt16](repeating: 0, count: stride * height)
                var previous = [UInt16](repeating: 0, count: width * height)
                var mask = [UInt8](repeating: 0, count: width * height)
                var soft = [UInt8](repeating: 0, count: width * height)
                for y in 0..<height {
                    for x in 0..<width {
                        let p = UInt16(random.below(4000))
                        previous[y * width + x] = p
                        // Mostly steady depth, some moved a little or a lot; all four corners of
                        // the 3x3 test reached.
                        let change = [0, 0, 0, 10, 200, 3000][random.below(6)]
                        depth[y * stride + x] = UInt16(min(65535, max(0, Int(p) + (random.below(2) == 0 ? change : -change))))
                        let m: UInt8 = random.below(2) == 0 ? 255 : 0
                        mask[y * width + x] = m
                        soft[y * width + x] = random.below(3) == 0 ? UInt8(random.below(256)) : m
                    }
                }
                if round == 3 {
                    for i in soft.indices { soft[i] = 255 &- mask[i] }
                }
                var expected = soft
                let keep = [256, 13, 128, 256 - 95 * 256 / 100][round]
                let base = [1, 20, 5, 1000][round]
                ReferenceTemporal.blend(mask: mask, soft: &expected, depth: depth, stride: stride, previous: previous,
                                        width: width, height: height, keep: keep, base: base)
                MatteEngine.blendTowardMask(mask: mask, soft: &soft, depth: depth, stride: stride, previous: previous,
                                            width: width, height: height, keep: keep, base: base)
                #expect(soft == expected, "\(width)x\(height) round \(round)")
            }
        }
    }

    // MARK: whole scenes

    /// The scalar stages run beside an engine on the same frames, fed what the engine decided its
    /// stages on (work depth, floor marks, band), with their own temporal state.
    final class StageReference {
        let width: Int
        let height: Int
        let segments: ReferenceDepthSegments
        let labeller: ReferenceRunLabeller
        var classes: [UInt8]
        var mask: [UInt8]
        var soft: [UInt8]
        var previousDepth: [UInt16]
        var hasPrevious = false
        var previousUnit: Float = 0
        var frames = 0

        init(size: FrameSize) throws {
            width = size.width
            height = size.height
            segments = try ReferenceDepthSegments(width: width, height: height)
            labeller = try ReferenceRunLabeller(width: width, height: height)
            classes = [UInt8](repeating: 0, count: size.pixelCount)
            mask = classes
            soft = classes
            previousDepth = [UInt16](repeating: 0, count: size.pixelCount)
        }

        func check(_ engine: MatteEngine, _ what: String) {
            let parameters = engine.parameters
            guard let work = engine.lastWork else {
                Issue.record("\(what): the engine recorded no work")
                return
            }
            let count = width * height
            segments.floor.update(from: engine.floorMarks, count: count)
            let segmented = segments.segment(depth: work.depth, stride: work.stride, unit: work.unit,
                                             near: work.regionNear, far: work.regionFar,
                                             minimumPixels: parameters.minimumBlobPixels,
                                             pixelWidthMM: work.pixelWidthMM, into: &classes)
            if !segmented {
                let span = work.far >= work.near ? work.far &- work.near : 0
                for y in 0..<height {
                    for x in 0..<width {
                        let d = work.depth[y * work.stride + x]
                        let inBand = work.far >= work.near && (d &- work.near) <= span
                        classes[y * width + x] = d == 0 ? 1 : inBand ? 2 : 0
                    }
                }
            }
            let at = DepthKernelIdentityTests.mismatch(engine.classPlane, classes, count: count)
            #expect(at == nil, "\(what): classes differ first at \(at ?? -1)")
            if !labeller.label(classes: classes, minimumBlob: parameters.minimumBlobPixels, into: &mask) {
                for i in 0..<count { mask[i] = classes[i] == 2 ? 255 : 0 }
            }
            let maskAt = DepthKernelIdentityTests.mismatch(engine.maskPlane, mask, count: count)
            #expect(maskAt == nil, "\(what): mask differs first at \(maskAt ?? -1)")
            let weight = min(95, max(0, parameters.temporalPercent))
            if hasPrevious && weight > 0 && previousUnit == work.unit {
                ReferenceTemporal.blend(mask: mask, soft: &soft, depth: work.depth, stride: work.stride,
                                        previous: previousDepth, width: width, height: height,
                                        keep: 256 - weight * 256 / 100, base: max(1, min(1000, Int(20 / work.unit))))
            } else {
                soft = mask
            }
            for y in 0..<height {
                for x in 0..<width { previousDepth[y * width + x] = work.depth[y * work.stride + x] }
            }
            hasPrevious = true
            previousUnit = work.unit
            let softAt = DepthKernelIdentityTests.mismatch(engine.softPlane, soft, count: count)
            #expect(softAt == nil, "\(what): smoothed alpha differs first at \(softAt ?? -1)")
            frames += 1
        }
    }

    static func fixed() -> MatteParameters {
        var parameters = MatteParameters()
        parameters.mode = .fixed
        parameters.farMM = 3200
        return parameters
    }

    @Test(arguments: [false, true])
    func theSyntheticSceneMatchesStageForStage(fixedBand: Bool) throws {
        let scene = SyntheticScene(seed: 7, colourSize: FrameSize(width: 640, height: 480))
        let engine = try MatteEngine(parameters: fixedBand ? Self.fixed() : MatteParameters(),
                                     depthSize: scene.depthSize, alphaSize: scene.colourSize)
        let reference = try StageReference(size: engine.workSize)
        let colour = PixelBuffer(format: .yuyv, size: scene.colourSize)
        let depth = PixelBuffer(format: .z16, size: scene.depthSize)
        let alpha = PixelBuffer(format: .alpha8, size: scene.colourSize)
        for frame in 0..<12 {
            scene.render(frame: frame, color: colour.view, depth: depth.view, truth: nil)
            engine.process(depth: depth.view, unitMM: 1, colour: colour.view, into: alpha.view)
            reference.check(engine, "synthetic frame \(frame)")
        }
        #expect(reference.frames == 12)
    }

    @Test(arguments: [false, true])
    func theGroupSceneMatchesStageForStage(fixedBand: Bool) throws {
        let scene = GroupScene(colourSize: FrameSize(width: 320, height: 240))
        let engine = try MatteEngine(parameters: fixedBand ? Self.fixed() : MatteParameters(),
                                     depthSize: scene.depthSize, alphaSize: scene.colourSize)
        let reference = try StageReference(size: engine.workSize)
        let colour = PixelBuffer(format: .rgb24, size: scene.colourSize)
        let depth = PixelBuffer(format: .z16, size: scene.depthSize)
        let alpha = PixelBuffer(format: .alpha8, size: scene.colourSize)
        for frame in 0..<10 {
            scene.render(frame: frame, color: colour.view, depth: depth.view, truth: nil)
            engine.process(depth: depth.view, unitMM: 1, colour: colour.view, into: alpha.view)
            reference.check(engine, "group frame \(frame)")
        }
        #expect(reference.frames == 10)
    }

    /// Reprojected depth: the work grid is the engine's own plane, not the camera's.
    @Test func theUnregisteredGroupMatchesStageForStage() throws {
        let scene = GroupScene.unregistered(colourSize: FrameSize(width: 320, height: 240))
        let projection = DepthProjection(depth: scene.depthCamera, colour: scene.colourCamera,
                                         translationMM: scene.colourOffsetMM)
        let engine = try MatteEngine(parameters: MatteParameters(), depthSize: scene.depthSize,
                                     alphaSize: scene.colourSize, projection: projection)
        let reference = try StageReference(size: engine.workSize)
        let colour = PixelBuffer(format: .rgb24, size: scene.colourSize)
        let depth = PixelBuffer(format: .z16, size: scene.depthSize)
        let alpha = PixelBuffer(format: .alpha8, size: scene.colourSize)
        for frame in 0..<6 {
            scene.render(frame: frame, color: colour.view, depth: depth.view, truth: nil)
            engine.process(depth: depth.view, unitMM: 1, colour: colour.view, into: alpha.view)
            reference.check(engine, "unregistered frame \(frame)")
        }
        #expect(reference.frames == 6)
    }

    @Test(.enabled(if: KinectFrameTests.available, "needs ../shared/data/rgbd/pcl_five_people (real Kinect frame); not present"))
    func theKinectFrameMatchesStageForStage() throws {
        let png = try #require(GreyPNG(path: KinectFrameTests.folder + "/depth/000000.png"))
        let size = FrameSize(width: png.width, height: png.height)
        let depth = PixelBuffer(format: .z16, size: size)
        for y in 0..<png.height {
            let row = depth.row(y).assumingMemoryBound(to: UInt16.self)
            for x in 0..<png.width { row[x] = png.samples[y * png.width + x] }
        }
        let engine = try MatteEngine(parameters: MatteParameters(), depthSize: size, alphaSize: size)
        let reference = try StageReference(size: engine.workSize)
        let alpha = PixelBuffer(format: .alpha8, size: size)
        for frame in 0..<4 {
            // The frame shifted a little each time, so the temporal blend has work to do.
            if frame > 0 {
                for y in 0..<png.height {
                    let row = depth.row(y).assumingMemoryBound(to: UInt16.self)
                    for x in 0..<png.width { row[x] = png.samples[y * png.width + min(png.width - 1, x + frame * 2)] }
                }
            }
            engine.process(depth: depth.view, unitMM: 1, into: alpha.view)
            reference.check(engine, "kinect frame \(frame)")
        }
        #expect(reference.frames == 4)
    }
}
