import Frames
import Matte
import Scenes
import Testing

/// The floor: found under the group, tracked, and never invented where there is none.
@Suite struct FloorTests {
    @Test func noFloorInViewIsNeverInvented() {
        let scene = SyntheticScene(seed: 1, colourSize: FrameSize(width: 320, height: 240))
        let engine = MatteEngine(parameters: MatteParameters(), depthSize: scene.depthSize, alphaSize: scene.colourSize)
        let colour = PixelBuffer(format: .yuyv, size: scene.colourSize)
        let depth = PixelBuffer(format: .z16, size: scene.depthSize)
        let alpha = PixelBuffer(format: .alpha8, size: scene.colourSize)
        for frame in 0..<300 {
            scene.render(frame: frame, color: colour.view, depth: depth.view, truth: nil)
            engine.process(depth: depth.view, unitMM: 1, into: alpha.view)
            if let plane = engine.floorPlane { print("frame \(frame): \(plane)") }
            #expect(engine.floorPlane == nil, "frame \(frame)")
        }
    }
}
