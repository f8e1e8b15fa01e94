@_spi(Testing) import Frames
import Foundation
@testable import Matte
@_spi(Testing) import Scenes
import Testing

/// The temporal blend's lanes (MatteEngine.blendTowardMask) against the scalar blend they replaced
/// (ReferenceTemporal in this target): the same bytes for random pictures of many sizes and strides
/// and whole scenes played through the engine, where every frame's smoothed alpha is compared with
/// the scalar blend of the engine's own mask. (The segmenter and labeller have no lane version:
/// the attempts measured no gain, so there is nothing to compare them with.)
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

    static let sizes = [(1, 1), (1, 9), (9, 1), (2, 2), (7, 5), (8, 8), (9, 3), (15, 11), (16, 16), (17, 13),
                        (31, 7), (33, 20), (64, 48), (101, 37), (160, 120)]

    static func mismatch(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int) -> Int? {
        for i in 0..<count where a[i] != b[i] { return i }
        return nil
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

    /// The scalar blend run beside an engine on the same frames, fed the mask and work depth the
    /// engine decided its temporal stage on, with its own temporal state.
    final class StageReference {
        let width: Int
        let height: Int
        var mask: [UInt8]
        var soft: [UInt8]
        var previousDepth: [UInt16]
        var hasPrevious = false
        var previousUnit: Float = 0
        var frames = 0

        init(size: FrameSize) throws {
            width = size.width
            height = size.height
            mask = [UInt8](repeating: 0, count: size.pixelCount)
            soft = mask
            previousDepth = [UInt16](repeating: 0, count: size.pixelCount)
        }

        func check(_ engine: MatteEngine, _ what: String) {
            let parameters = engine.parameters
            guard let work = engine.lastWork else {
                Issue.record("\(what): the engine recorded no work")
                return
            }
            let count = width * height
            for i in 0..<count { mask[i] = engine.maskPlane[i] }
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
