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
}
