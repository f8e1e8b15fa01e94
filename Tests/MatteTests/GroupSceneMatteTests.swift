@_spi(Testing) import Frames
import Matte
import Scenes
import Testing

/// Issue 12's acceptance on the hard scenes (GroupScene: three people at 2.3-2.9 m standing on a
/// floor before a wall, shadows, distance-growing quantisation, flying pixels, hair and fingers),
/// 320x240, 10 frames each, scored as `backdrop eval` scores: IoU >= 0.95 mean and >= 0.92
/// minimum, boundary F (2 px) >= 0.90, in the default config (auto) and in fixed mode with a
/// band that holds the group (0.3-3.2 m); flicker over still truth <= 0.5 alpha levels a frame
/// on the still scene; the walker (1 m/s) followed without lag.
@Suite struct GroupSceneMatteTests {
    static let size = FrameSize(width: 320, height: 240)

    static func evaluate(_ scene: GroupScene, parameters: MatteParameters, projection: DepthProjection? = nil,
                         frames: Int = 10, colourGuided: Bool = true) throws -> MatteEvaluation.Summary {
        try evaluateWithBleed(scene, parameters: parameters, projection: projection, frames: frames,
                          colourGuided: colourGuided).0
    }

    static func evaluateWithBleed(_ scene: GroupScene, parameters: MatteParameters, projection: DepthProjection? = nil,
                                  frames: Int = 10, colourGuided: Bool = true) throws -> (MatteEvaluation.Summary, RimBleed) {
        let engine = try MatteEngine(parameters: parameters, depthSize: scene.depthSize, alphaSize: scene.colourSize,
                                 projection: projection)
        let colour = PixelBuffer(format: .rgb24, size: scene.colourSize)
        let depth = PixelBuffer(format: .z16, size: scene.depthSize)
        let truth = PixelBuffer(format: .alpha8, size: scene.colourSize)
        let alpha = PixelBuffer(format: .alpha8, size: scene.colourSize)
        let evaluation = try MatteEvaluation(size: scene.colourSize)
        var bleed = RimBleed()
        for frame in 0..<frames {
            scene.render(frame: frame, color: colour.view, depth: depth.view, truth: truth.view)
            engine.process(depth: depth.view, unitMM: 1, colour: colourGuided ? colour.view : nil, into: alpha.view)
            evaluation.add(alpha: alpha.view, truth: truth.view)
            bleed.add(alpha: alpha.view, truth: truth.view)
        }
        return (evaluation.summary, bleed)
    }

    static func configs() -> [(String, MatteParameters)] {
        var fixed = MatteParameters()
        fixed.mode = .fixed
        fixed.farMM = 3200
        return [("auto (default)", MatteParameters()), ("fixed 0.3-3.2 m", fixed)]
    }

    @Test(arguments: [true, false])
    func theGroupIsMattedWholeWithCleanEdges(moving: Bool) throws {
        let scene = GroupScene(colourSize: Self.size)
        scene.moving = moving
        for (name, parameters) in Self.configs() {
            let s = try Self.evaluate(scene, parameters: parameters)
            print("group \(moving ? "moving" : "still") \(name): IoU \(s.meanIoU) min \(s.minimumIoU), "
                  + "boundary F \(s.meanBoundaryF) min \(s.minimumBoundaryF), flicker \(s.flicker), lag \(s.lagFrames)")
            #expect(s.meanIoU >= 0.95, "\(name): IoU mean \(s.meanIoU)")
            #expect(s.minimumIoU >= 0.92, "\(name): IoU min \(s.minimumIoU)")
            #expect(s.meanBoundaryF >= 0.90, "\(name): boundary F \(s.meanBoundaryF)")
            if moving {
                #expect(s.lagFrames <= 0.1, "\(name): lag \(s.lagFrames) frames")
            } else {
                #expect(s.flicker <= 0.5, "\(name): flicker \(s.flicker)")
            }
        }
    }

    /// Depth from a camera 30 mm aside with a wider view, reprojected with the scene's own
    /// intrinsics and offset: the issue asks for IoU >= 0.95 against the registered truth. Depth
    /// alone gives about 0.90 (the matte is decided on a grid of 0.59 the colour resolution, one
    /// sample per depth pixel); colour-guided edges bring it over the line.
    @Test func unregisteredDepthGivesTheSameMatte() throws {
        let scene = GroupScene.unregistered(colourSize: Self.size)
        let projection = DepthProjection(depth: scene.depthCamera, colour: scene.colourCamera,
                                         translationMM: scene.colourOffsetMM)
        let s = try Self.evaluate(scene, parameters: MatteParameters(), projection: projection)
        print("group unregistered auto: IoU \(s.meanIoU) min \(s.minimumIoU), boundary F \(s.meanBoundaryF)")
        #expect(s.meanIoU >= 0.95, "IoU mean \(s.meanIoU)")
        #expect(s.minimumIoU >= 0.92, "IoU min \(s.minimumIoU)")
        #expect(s.meanBoundaryF >= 0.90, "boundary F \(s.meanBoundaryF)")
    }

    /// Colour against depth alone on the same frames: colour-guided edges and shadow strips may
    /// not lose IoU or boundary F, and must let less of the camera's background through the rim.
    @Test(arguments: [true, false])
    func colourGuidedEdgesBeatDepthAlone(registered: Bool) throws {
        let scene = registered ? GroupScene(colourSize: Self.size) : GroupScene.unregistered(colourSize: Self.size)
        scene.moving = true
        let projection = registered ? nil : DepthProjection(depth: scene.depthCamera, colour: scene.colourCamera,
                                                            translationMM: scene.colourOffsetMM)
        let (depthOnly, depthBleed) = try Self.evaluateWithBleed(scene, parameters: MatteParameters(), projection: projection,
                                                             colourGuided: false)
        let (guided, guidedBleed) = try Self.evaluateWithBleed(scene, parameters: MatteParameters(), projection: projection)
        let name = registered ? "registered" : "unregistered"
        print("group \(name) depth alone: IoU \(depthOnly.meanIoU) min \(depthOnly.minimumIoU), F \(depthOnly.meanBoundaryF), "
              + "rim bleed \(depthBleed.mean); colour-guided: IoU \(guided.meanIoU) min \(guided.minimumIoU), "
              + "F \(guided.meanBoundaryF), rim bleed \(guidedBleed.mean)")
        #expect(guided.meanIoU >= depthOnly.meanIoU, "\(name): IoU \(guided.meanIoU) < \(depthOnly.meanIoU)")
        #expect(guided.meanBoundaryF >= depthOnly.meanBoundaryF, "\(name): F \(guided.meanBoundaryF) < \(depthOnly.meanBoundaryF)")
        #expect(guidedBleed.mean < depthBleed.mean, "\(name): rim bleed \(guidedBleed.mean) >= \(depthBleed.mean)")
    }
}
