import Frames
import Testing
@testable import Matte

/// The vectorised reprojection against its plain form (DepthReprojectionReference), byte for byte,
/// and where one sample lands, worked out by hand.
@Suite struct DepthReprojectionTests {
    /// A D435-like pair: depth 848x480, colour 1280x720, 14.9 mm aside, a few milliradians of
    /// rotation, at the sizes given.
    static func projection(depth: FrameSize, colour: FrameSize) -> DepthProjection {
        DepthProjection(depth: PinholeIntrinsics(fx: 421.5, fy: 421.5, cx: 424.2, cy: 238.9)
                            .scaled(x: Float(depth.width) / 848, y: Float(depth.height) / 480),
                        colour: PinholeIntrinsics(fx: 613.4, fy: 613.4, cx: 646.5, cy: 357.9)
                            .scaled(x: Float(colour.width) / 1280, y: Float(colour.height) / 720),
                        rotation: CameraRotation(row0: SIMD3(1, -0.0021, 0.0043), row1: SIMD3(0.0021, 1, 0.0012),
                                                 row2: SIMD3(-0.0043, -0.0012, 1)),
                        translationMM: SIMD3(-14.9, -0.1, -0.3))
    }

    /// Depth with runs of holes, near and far readings, the extremes (1, 65535) and steps.
    static func depth(_ size: FrameSize, stride: Int, seed: UInt64) -> [UInt16] {
        var state = seed
        func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 33
        }
        var values = [UInt16](repeating: 0, count: stride * size.height)
        for y in 0..<size.height {
            var x = 0
            while x < size.width {
                let run = Int(next() % 23) + 1
                let kind = next() % 10
                let base = UInt16(truncatingIfNeeded: 300 + next() % 4000)
                for i in x..<min(size.width, x + run) {
                    switch kind {
                    case 0, 1: values[y * stride + i] = 0
                    case 2: values[y * stride + i] = [1, 65535, 2, 400][Int(next() % 4)]
                    default: values[y * stride + i] = base &+ UInt16(truncatingIfNeeded: next() % 40)
                    }
                }
                x += run
            }
        }
        return values
    }

    static func run(_ reprojection: DepthReprojection, _ depth: [UInt16], stride: Int, unit: Float,
                    vectorised: Bool) -> [UInt16] {
        // One spare element: where lanes that land nowhere write.
        var grid = [UInt16](repeating: 7, count: reprojection.workSize.pixelCount + 1)
        reprojection.vectorised = vectorised
        depth.withUnsafeBufferPointer { source in
            grid.withUnsafeMutableBufferPointer { target in
                reprojection.run(source: source.baseAddress!, stride: stride, unit: unit, into: target.baseAddress!)
            }
        }
        return Array(grid.dropLast())
    }

    @Test(arguments: [(FrameSize(width: 848, height: 480), FrameSize(width: 879, height: 494), Float(1)),
                      (FrameSize(width: 851, height: 37), FrameSize(width: 640, height: 360), Float(1)),
                      (FrameSize(width: 640, height: 480), FrameSize(width: 640, height: 480), Float(0.1)),
                      (FrameSize(width: 13, height: 9), FrameSize(width: 20, height: 11), Float(2.5))])
    func vectorisedEqualsThePlainForm(depthSize: FrameSize, workSize: FrameSize, unit: Float) throws {
        let projection = Self.projection(depth: depthSize, colour: workSize)
        let reprojection = try DepthReprojection(projection: projection, depthSize: depthSize, workSize: workSize,
                                                 workCamera: projection.colour)
        let stride = depthSize.width + 3
        for seed in 1...3 as ClosedRange<UInt64> {
            let depth = Self.depth(depthSize, stride: stride, seed: seed)
            let plain = Self.run(reprojection, depth, stride: stride, unit: unit, vectorised: false)
            let lanes = Self.run(reprojection, depth, stride: stride, unit: unit, vectorised: true)
            #expect(plain == lanes, "seed \(seed): \(zip(plain, lanes).filter { $0 != $1 }.count) pixels differ")
            #expect(plain.contains { $0 != 0 }, "nothing landed: the comparison would prove nothing")
        }
    }

    /// A colour camera 5 mm behind the depth camera (tz −5): a hole's z of 0 would be 5 mm ahead of
    /// it, so holes must be refused by their reading, not by distance.
    @Test func holesLandNowhereEvenWhenTheColourCameraSitsBehind() throws {
        let size = FrameSize(width: 40, height: 30)
        let pinhole = PinholeIntrinsics(fx: 30, fy: 30, cx: 19.5, cy: 14.5)
        let projection = DepthProjection(depth: pinhole, colour: pinhole, translationMM: SIMD3(0, 0, -5))
        let reprojection = try DepthReprojection(projection: projection, depthSize: size, workSize: size, workCamera: pinhole)
        var depth = [UInt16](repeating: 0, count: size.pixelCount)
        depth[3] = 1500
        for vectorised in [false, true] {
            let grid = Self.run(reprojection, depth, stride: 40, unit: 1, vectorised: vectorised)
            #expect(grid.filter { $0 != 0 }.count == 1, "vectorised \(vectorised)")
        }
    }

    /// Samples landing within half a pixel before the grid's first row and column belong to them
    /// (the lane form once rounded those to row -1 and wrote before the grid).
    @Test func theFirstHalfPixelRoundsIntoTheGrid() throws {
        let size = FrameSize(width: 16, height: 8)
        let pinhole = PinholeIntrinsics(fx: 10, fy: 10, cx: 7.5, cy: 3.5)
        // The colour camera 0.8 mm right and 0.8 mm down at 20 mm: depth pixel (0, 0) lands 0.4 px
        // up and left of colour pixel (0, 0).
        let projection = DepthProjection(depth: pinhole, colour: pinhole, translationMM: SIMD3(0.8, 0.8, 0))
        let reprojection = try DepthReprojection(projection: projection, depthSize: size, workSize: size, workCamera: pinhole)
        var depth = [UInt16](repeating: 0, count: size.pixelCount)
        depth[0] = 20
        for vectorised in [false, true] {
            let grid = Self.run(reprojection, depth, stride: 16, unit: 1, vectorised: vectorised)
            #expect(grid[0] == 20 && grid.filter { $0 != 0 }.count == 1, "vectorised \(vectorised)")
        }
    }

    @Test func oneSampleLandsWhereTheOffsetPutsIt() throws {
        // No rotation; the colour camera 10 mm to the left (x −10) of the depth camera, same
        // pinhole: a point 2 m ahead on the depth camera's axis is 10·fx/2000 = 1 px right of the
        // colour camera's principal point (31, 23).
        let size = FrameSize(width: 64, height: 48)
        let pinhole = PinholeIntrinsics(fx: 200, fy: 200, cx: 31, cy: 23)
        let projection = DepthProjection(depth: pinhole, colour: pinhole, translationMM: SIMD3(-10, 0, 0))
        let reprojection = try DepthReprojection(projection: projection, depthSize: size, workSize: size, workCamera: pinhole)
        var depth = [UInt16](repeating: 0, count: size.pixelCount)
        depth[23 * 64 + 31] = 2000
        for vectorised in [false, true] {
            let grid = Self.run(reprojection, depth, stride: 64, unit: 1, vectorised: vectorised)
            // Pixel 32, same row, depth unchanged along the axis.
            #expect(grid[23 * 64 + 32] == 2000)
            #expect(grid.filter { $0 != 0 }.count == 1)
        }
    }
}
