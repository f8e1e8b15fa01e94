@_spi(Testing) import Frames
@_spi(Testing) import Scenes
import Testing

/// The synthetic scene is the matte's ground truth, so its own promises are checked here:
/// determinism, geometry (who is where, at what depth), the kinds of sensor noise it claims,
/// and that all three colour formats carry the same picture.
@Suite struct SyntheticSceneTests {
    static let size = FrameSize(width: 320, height: 240)

    final class Frame {
        let colour: PixelBuffer
        let depth: PixelBuffer
        let truth: PixelBuffer

        init(_ scene: SyntheticScene, frame: Int, format: PixelFormat = .rgb24) {
            colour = PixelBuffer(format: format, size: scene.colourSize)
            depth = PixelBuffer(format: .z16, size: scene.depthSize)
            truth = PixelBuffer(format: .alpha8, size: scene.colourSize)
            scene.render(frame: frame, color: colour.view, depth: depth.view, truth: truth.view)
        }

        func depthAt(_ x: Int, _ y: Int) -> Int { Int(depth.row(y).assumingMemoryBound(to: UInt16.self)[x]) }
        func truthAt(_ x: Int, _ y: Int) -> Bool { truth.row(y).assumingMemoryBound(to: UInt8.self)[x] == 255 }
        func colourByte(_ x: Int, _ y: Int) -> UInt8 { colour.row(y).assumingMemoryBound(to: UInt8.self)[x] }

        func bytes(_ buffer: borrowing PixelBuffer) -> [UInt8] {
            let raw = UnsafeRawBufferPointer(start: buffer.base, count: buffer.byteCount)
            return Array(raw)
        }
    }

    @Test func describesItself() {
        let scene = SyntheticScene(seed: 1, colourSize: FrameSize(width: 640, height: 480),
                                   depthSize: FrameSize(width: 320, height: 240))
        #expect(scene.frameRate == 30)
        #expect(scene.colourSize == FrameSize(width: 640, height: 480))
        #expect(scene.depthSize == FrameSize(width: 320, height: 240))
        #expect(abs(scene.depthCamera.fx * 2 - scene.colourCamera.fx) < 0.001)
    }

    @Test func sameSeedAndFrameGiveTheSameBytes() {
        let a = Frame(SyntheticScene(seed: 42, colourSize: Self.size), frame: 17)
        let b = Frame(SyntheticScene(seed: 42, colourSize: Self.size), frame: 17)
        #expect(a.bytes(a.depth) == b.bytes(b.depth))
        #expect(a.bytes(a.colour) == b.bytes(b.colour))
        #expect(a.bytes(a.truth) == b.bytes(b.truth))
        // Frames can be rendered in any order.
        let scene = SyntheticScene(seed: 42, colourSize: Self.size)
        _ = Frame(scene, frame: 3)
        let again = Frame(scene, frame: 17)
        #expect(again.bytes(again.depth) == a.bytes(a.depth))
        let otherSeed = Frame(SyntheticScene(seed: 43, colourSize: Self.size), frame: 17)
        #expect(otherSeed.bytes(otherSeed.depth) != a.bytes(a.depth), "noise follows the seed")
        #expect(otherSeed.bytes(otherSeed.truth) == a.bytes(a.truth), "the person does not")
    }

    @Test func personAtAboutOneMetreBeforeTheWall() {
        let scene = SyntheticScene(seed: 1, colourSize: Self.size)
        scene.noisy = false
        let frame = Frame(scene, frame: 0)
        var subject = 0
        var subjectDepth = 0
        var wallDepthMin = Int.max
        for y in 0..<Self.size.height {
            for x in 0..<Self.size.width {
                if frame.truthAt(x, y) {
                    subject += 1
                    subjectDepth += frame.depthAt(x, y)
                } else {
                    wallDepthMin = min(wallDepthMin, frame.depthAt(x, y))
                }
            }
        }
        let fraction = Double(subject) / Double(Self.size.pixelCount)
        #expect(fraction > 0.1 && fraction < 0.4, "person covers \(fraction) of the frame")
        #expect((1100...1450).contains(subjectDepth / subject))
        #expect(wallDepthMin == 3000, "registered clean depth: truth and depth silhouettes agree exactly")
        // The person is cut by the bottom edge, as a booth frames someone.
        #expect((0..<Self.size.width).contains { frame.truthAt($0, Self.size.height - 1) })
    }

    @Test func theSubjectMovesSideToSideAndInDepth() {
        let scene = SyntheticScene(seed: 1, colourSize: Self.size)
        scene.noisy = false
        func centre(_ frame: Frame) -> (Double, Double) {
            var sx = 0, sd = 0, n = 0
            for y in 0..<Self.size.height {
                for x in 0..<Self.size.width where frame.truthAt(x, y) {
                    sx += x
                    sd += frame.depthAt(x, y)
                    n += 1
                }
            }
            return (Double(sx) / Double(n), Double(sd) / Double(n))
        }
        let start = centre(Frame(scene, frame: 0))
        let quarter = centre(Frame(scene, frame: 30))
        let later = centre(Frame(scene, frame: 60))
        #expect(abs(quarter.0 - start.0) > 20, "moved sideways")
        #expect(abs(later.1 - start.1) > 20, "moved in depth")
        scene.moving = false
        #expect(centre(Frame(scene, frame: 0)).0 == centre(Frame(scene, frame: 45)).0)
    }

    @Test func depthCarriesSensorNoise() {
        let scene = SyntheticScene(seed: 1, colourSize: Self.size)
        let frame = Frame(scene, frame: 5)
        var holes = 0
        var wallValues = Set<Int>()
        var subjectValues = Set<Int>()
        var inBetween = 0
        var shadowHolesRightOfSubject = 0
        for y in 0..<Self.size.height {
            for x in 0..<Self.size.width {
                let d = frame.depthAt(x, y)
                if d == 0 {
                    holes += 1
                    // Shadow: just right of a subject edge.
                    if x >= 3 && (1...3).contains(where: { frame.truthAt(x - $0, y) }) && !frame.truthAt(x, y) {
                        shadowHolesRightOfSubject += 1
                    }
                } else if frame.truthAt(x, y) {
                    subjectValues.insert(d)
                } else {
                    if d > 1600 && d < 2700 { inBetween += 1 } else { wallValues.insert(d) }
                }
            }
        }
        let holeFraction = Double(holes) / Double(Self.size.pixelCount)
        #expect(holeFraction > 0.002 && holeFraction < 0.05, "holes \(holeFraction)")
        #expect(shadowHolesRightOfSubject > 100, "shadow holes beside the subject: \(shadowHolesRightOfSubject)")
        #expect(inBetween > 20, "flying pixels between subject and wall: \(inBetween)")
        // Quantised in disparity: few distinct values on the far wall, coarse steps.
        let wall = wallValues.filter { $0 > 2700 }.sorted()
        #expect(wall.count >= 3 && wall.count < 30, "wall levels \(wall)")
        if wall.count >= 2 {
            let steps = zip(wall.dropFirst(), wall).map { $0 - $1 }
            #expect(steps.min()! > 40, "wall steps \(steps)")
        }
        #expect(subjectValues.count > 5)
    }

    @Test func colourFormatsCarryTheSamePicture() {
        let scene = SyntheticScene(seed: 1, colourSize: Self.size)
        let rgb = Frame(scene, frame: 9, format: .rgb24)
        let yuyv = Frame(scene, frame: 9, format: .yuyv)
        let nv12 = Frame(scene, frame: 9, format: .nv12)
        for (x, y) in [(10, 10), (160, 200), (300, 30), (161, 120)] {
            let r = Int(rgb.colourByte(3 * x, y))
            let g = Int(rgb.colourByte(3 * x + 1, y))
            let b = Int(rgb.colourByte(3 * x + 2, y))
            let luma = ((66 * r + 129 * g + 25 * b + 128) >> 8) + 16
            #expect(Int(yuyv.colourByte(2 * x, y)) == luma)
            #expect(Int(nv12.colourByte(x, y)) == luma)
        }
        // The person is not the colour of the wall behind him.
        let shirt = (Int(rgb.colourByte(3 * 160, 200)), Int(rgb.colourByte(3 * 160 + 2, 200)))
        #expect(rgb.truthAt(160, 200))
        #expect(shirt.1 > shirt.0, "blue shirt against red brick: \(shirt)")
    }

    @Test func unregisteredDepthIsSeenFromTheDepthCamera() {
        // Depth camera 50 mm left of the colour camera (colour centre at +50 mm in depth frame):
        // a subject ~1.2 m away appears fx * 50 / 1200 px further right in depth than in colour.
        let camera = SyntheticCamera.typical(width: 320, height: 240)
        let scene = SyntheticScene(seed: 1, colourSize: Self.size, colourCamera: camera, depthSize: Self.size,
                                   depthCamera: camera, colourOffsetMM: SIMD3<Float>(50, 0, 0))
        scene.noisy = false
        scene.moving = false
        let frame = Frame(scene, frame: 0)
        var truthX = 0, truthN = 0, depthX = 0, depthN = 0
        for y in 0..<Self.size.height {
            for x in 0..<Self.size.width {
                if frame.truthAt(x, y) { truthX += x; truthN += 1 }
                if frame.depthAt(x, y) < 2000 { depthX += x; depthN += 1 }
            }
        }
        let shift = Double(depthX) / Double(depthN) - Double(truthX) / Double(truthN)
        let expected = Double(camera.fx) * 50 / 1280
        #expect(abs(shift - expected) < 1.5, "shift \(shift), expected about \(expected)")
    }
}
