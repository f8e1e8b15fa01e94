@_spi(Testing) import Frames
import Matte
@_spi(Testing) import Scenes
import Testing

/// The floor: found under the group, tracked, and never invented where there is none.
@Suite struct FloorTests {
    @Test func noFloorInViewIsNeverInvented() throws {
        let scene = SyntheticScene(seed: 1, colourSize: FrameSize(width: 320, height: 240))
        let engine = try MatteEngine(parameters: MatteParameters(), depthSize: scene.depthSize, alphaSize: scene.colourSize)
        let colour = PixelBuffer(format: .yuyv, size: scene.colourSize)
        let depth = PixelBuffer(format: .z16, size: scene.depthSize)
        let alpha = PixelBuffer(format: .alpha8, size: scene.colourSize)
        for frame in 0..<300 {
            scene.render(frame: frame, color: colour.view, depth: depth.view, truth: nil)
            engine.process(depth: depth.view, unitMM: 1, into: alpha.view)
            #expect(engine.floorPlane == nil, "frame \(frame): \(String(describing: engine.floorPlane))")
        }
    }

    /// GroupScene's floor is 1250 mm below a level camera: normal straight down the image.
    @Test func theGroupsFloorIsFoundAndHeld() throws {
        let scene = GroupScene(colourSize: FrameSize(width: 320, height: 240))
        let engine = try MatteEngine(parameters: MatteParameters(), depthSize: scene.depthSize, alphaSize: scene.colourSize)
        let colour = PixelBuffer(format: .rgb24, size: scene.colourSize)
        let depth = PixelBuffer(format: .z16, size: scene.depthSize)
        let alpha = PixelBuffer(format: .alpha8, size: scene.colourSize)
        for frame in 0..<8 {
            scene.render(frame: frame, color: colour.view, depth: depth.view, truth: nil)
            engine.process(depth: depth.view, unitMM: 1, into: alpha.view)
            let plane = try #require(engine.floorPlane, "frame \(frame)")
            #expect(plane.1 > 0.97, "normal \(plane)")
            // The engine's nominal intrinsics (0.72 x width) differ from the scene's (0.728):
            // heights come out scaled by about 1 %.
            #expect(abs(plane.3 - 1250) < 60, "camera height \(plane.3) mm")
        }
    }

    /// The floor's marks are cleared once when the floor leaves the view and kept clear while
    /// none is found: a frame after a floor frame is matted exactly as by a fresh engine.
    @Test func marksOfALostFloorAreCleared() throws {
        let size = FrameSize(width: 320, height: 240)
        let group = GroupScene(colourSize: size)
        let empty = SyntheticScene(seed: 1, colourSize: size)
        #expect(group.depthSize == empty.depthSize)
        let continued = try MatteEngine(parameters: MatteParameters(), depthSize: group.depthSize, alphaSize: size)
        let fresh = try MatteEngine(parameters: MatteParameters(), depthSize: group.depthSize, alphaSize: size)
        let colour = PixelBuffer(format: .rgb24, size: size)
        let depth = PixelBuffer(format: .z16, size: group.depthSize)
        let alpha = PixelBuffer(format: .alpha8, size: size)
        let reference = PixelBuffer(format: .alpha8, size: size)
        // No floor (the marks cleared), a floor (marks written), then no floor again.
        empty.render(frame: 0, color: colour.view, depth: depth.view, truth: nil)
        continued.process(depth: depth.view, unitMM: 1, into: alpha.view)
        #expect(continued.floorPlane == nil)
        group.render(frame: 0, color: colour.view, depth: depth.view, truth: nil)
        continued.process(depth: depth.view, unitMM: 1, into: alpha.view)
        #expect(continued.floorPlane != nil)
        continued.reset()
        for frame in 0..<3 {
            empty.render(frame: frame, color: colour.view, depth: depth.view, truth: nil)
            continued.process(depth: depth.view, unitMM: 1, into: alpha.view)
            fresh.process(depth: depth.view, unitMM: 1, into: reference.view)
            #expect(continued.floorPlane == nil)
            var differing = 0
            for y in 0..<size.height {
                for x in 0..<size.width where alpha.view.row(y).load(fromByteOffset: x, as: UInt8.self)
                    != reference.view.row(y).load(fromByteOffset: x, as: UInt8.self) {
                    differing += 1
                }
            }
            #expect(differing == 0, "frame \(frame): \(differing) alpha bytes differ from a fresh engine's")
        }
    }
}
