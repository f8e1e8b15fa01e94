@_spi(Testing) import Frames
@testable import Matte
import MatteReference
@_spi(Testing) import Scenes
import Testing

/// FloorTracker against FloorReference: the plane (to the bit) after every frame of random
/// floors (camera heights, pitches and rolls, noise, holes, people standing on them, frames with
/// no floor at all, several depth units) and of the group scenes, tracked from frame to frame.
@Suite struct FloorReferenceTests {
    static func rays(width: Int, height: Int) -> ([Float], [Float]) {
        let f = Float(width) * 0.72
        return ((0..<width).map { (Float($0) - Float(width - 1) / 2) / f },
                (0..<height).map { (Float($0) - Float(height - 1) / 2) / f })
    }

    /// Frames through both; how many had a floor.
    static func compare(_ frames: [[UInt16]], width: Int, height: Int, stride: Int, unit: Float, _ what: String) throws -> Int {
        let tracker = try FloorTracker(width: width, height: height)
        var reference = FloorReference()
        let (rayX, rayY) = rays(width: width, height: height)
        var floors = 0
        for (index, depth) in frames.enumerated() {
            depth.withUnsafeBufferPointer { d in
                rayX.withUnsafeBufferPointer { x in
                    rayY.withUnsafeBufferPointer { y in
                        tracker.update(depth: d.baseAddress!, stride: stride, width: width, height: height, unit: unit,
                                       rayX: x.baseAddress!, rayY: y.baseAddress!)
                    }
                }
            }
            reference.update(depth: depth, stride: stride, width: width, height: height, unit: unit, rayX: rayX, rayY: rayY)
            let found = tracker.plane.map { [$0.nx, $0.ny, $0.nz, $0.offset] }
            let expected = reference.plane.map { [$0.nx, $0.ny, $0.nz, $0.offset] }
            #expect(found == expected, "\(what) frame \(index): \(found ?? []) against the reference's \(expected ?? [])")
            if found != nil { floors += 1 }
        }
        return floors
    }

    @Test func randomFloorsFitAsTheReference() throws {
        var random = DepthKernelIdentityTests.Random(state: 101)
        var floors = 0
        for (width, height) in [(8, 6), (64, 48), (160, 120), (320, 240), (640, 480)] {
            for round in 0..<3 {
                let unit: Float = [1, 0.2, 2][round]
                let stride = width + round
                let (rayX, rayY) = Self.rays(width: width, height: height)
                var frames: [[UInt16]] = []
                var heightMM = Float(800 + random.below(1600))
                for frame in 0..<10 {
                    heightMM += Float(random.below(41) - 20)
                    let pitch = Float(random.below(31) - 10) / 100
                    let roll = Float(random.below(21) - 10) / 100
                    // The plane's normal (down the image) with the camera tilted and leaned.
                    let n = (roll, 1 as Float, pitch)
                    let wall = frame % 5 == 4 ? Float(0) : Float(2500 + random.below(3000))
                    var depth = [UInt16](repeating: 0, count: stride * height)
                    let personLeft = random.below(width)
                    let personWidth = 1 + random.below(max(1, width / 4))
                    for y in 0..<height {
                        for x in 0..<width {
                            let facing = n.0 * rayX[x] + n.1 * rayY[y] + n.2
                            var z = facing > 0.01 ? heightMM / facing : wall
                            if wall > 0 && z > wall || z == 0 { z = wall }
                            if x >= personLeft && x < personLeft + personWidth && y > height / 3 { z = min(z, 1500) }
                            z += Float(random.below(21) - 10)
                            if random.below(12) == 0 || z <= 0 { z = 0 }
                            depth[y * stride + x] = UInt16(min(65535, max(0, z / unit)))
                        }
                    }
                    frames.append(depth)
                }
                floors += try Self.compare(frames, width: width, height: height, stride: stride, unit: unit,
                                           "\(width)x\(height) round \(round)")
            }
        }
        // Not vacuous: most frames had a floor to find.
        #expect(floors > 60)
    }

    @Test(arguments: [false, true])
    func groupScenesFitAsTheReference(still: Bool) throws {
        let scene = GroupScene(colourSize: FrameSize(width: 320, height: 240))
        scene.moving = !still
        let colour = PixelBuffer(format: .rgb24, size: scene.colourSize)
        let depth = PixelBuffer(format: .z16, size: scene.depthSize)
        let size = scene.depthSize
        var frames: [[UInt16]] = []
        for frame in 0..<10 {
            scene.render(frame: frame, color: colour.view, depth: depth.view, truth: nil)
            var packed = [UInt16](repeating: 0, count: size.pixelCount)
            for y in 0..<size.height {
                let row = depth.view.row(y).assumingMemoryBound(to: UInt16.self)
                for x in 0..<size.width { packed[y * size.width + x] = row[x] }
            }
            frames.append(packed)
        }
        let floors = try Self.compare(frames, width: size.width, height: size.height, stride: size.width, unit: 1, "group")
        #expect(floors == 10, "the group stands on a floor in every frame")
    }
}
