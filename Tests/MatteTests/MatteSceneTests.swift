import Frames
import Matte
@_spi(Testing) import Scenes
import Testing

/// The matte against the synthetic scene's ground truth: a person swaying at ~1.2 m before a
/// wall at 3 m, with sensor noise, shadows, flying pixels and dropouts. IoU on alpha >= 128.
@Suite struct MatteSceneTests {
    static func parameters(_ mode: MatteParameters.Mode, depthPixels: Int = 320 * 240) -> MatteParameters {
        var parameters = MatteParameters()
        parameters.mode = mode
        parameters.nearMM = 300
        parameters.farMM = 2000
        // The default minimum blob is for 640x480 depth; scale it with the depth area.
        parameters.minimumBlobPixels = 400 * depthPixels / (640 * 480)
        return parameters
    }

    @Test(arguments: [MatteParameters.Mode.fixed, .auto])
    func followsTheTruthOver300Frames(mode: MatteParameters.Mode) throws {
        let size = FrameSize(width: 320, height: 240)
        let scene = SyntheticScene(seed: 7, colourSize: size)
        let engine = try MatteEngine(parameters: Self.parameters(mode), depthSize: size, alphaSize: size)
        let run = SceneRun(scene: scene, engine: engine, frames: 0..<300)
        #expect(run.mean >= 0.97, "mean IoU \(run.mean)")
        #expect(run.worst >= 0.93, "worst IoU \(run.worst)")
        if mode == .auto {
            #expect(engine.subjectDistanceMM.map { (1000...1400).contains($0) } == true)
        }
    }

    @Test(arguments: [MatteParameters.Mode.fixed, .auto])
    func followsTheTruthAt640x480(mode: MatteParameters.Mode) throws {
        let size = FrameSize(width: 640, height: 480)
        let scene = SyntheticScene(seed: 11, colourSize: size)
        let engine = try MatteEngine(parameters: Self.parameters(mode, depthPixels: size.pixelCount),
                                 depthSize: size, alphaSize: size)
        let run = SceneRun(scene: scene, engine: engine, frames: 100..<130)
        #expect(run.mean >= 0.97, "mean IoU \(run.mean)")
        #expect(run.worst >= 0.93, "worst IoU \(run.worst)")
    }

    @Test func upscalesRegisteredDepthOfHalfTheColourSize() throws {
        let colour = FrameSize(width: 640, height: 480)
        let depth = FrameSize(width: 320, height: 240)
        let scene = SyntheticScene(seed: 5, colourSize: colour, depthSize: depth)
        let engine = try MatteEngine(parameters: Self.parameters(.auto), depthSize: depth, alphaSize: colour)
        let run = SceneRun(scene: scene, engine: engine, frames: 0..<30)
        #expect(run.mean >= 0.97, "mean IoU \(run.mean)")
        #expect(run.worst >= 0.93, "worst IoU \(run.worst)")
    }

    /// Depth from a wider 320x240 camera 50 mm to the left of the colour camera: reprojected it
    /// matches the colour view; taken as registered it is visibly off.
    @Test func reprojectsAnUnregisteredDepthCamera() throws {
        let colour = FrameSize(width: 640, height: 480)
        let depth = FrameSize(width: 320, height: 240)
        let colourCamera = SyntheticCamera.typical(width: colour.width, height: colour.height)
        let depthCamera = PinholeIntrinsics(fx: 200, fy: 200, cx: 159.5, cy: 119.5)
        let offset = SIMD3<Float>(50, 0, 0)
        func pinhole(_ camera: PinholeIntrinsics) -> DepthProjection.Pinhole {
            DepthProjection.Pinhole(fx: camera.fx, fy: camera.fy, cx: camera.cx, cy: camera.cy)
        }
        func run(_ translation: SIMD3<Float>) throws -> SceneRun {
            let scene = SyntheticScene(seed: 9, colourSize: colour, colourCamera: colourCamera, depthSize: depth,
                                       depthCamera: depthCamera, colourOffsetMM: offset)
            let projection = DepthProjection(depth: pinhole(depthCamera), colour: pinhole(colourCamera),
                                             translationMM: translation)
            let engine = try MatteEngine(parameters: Self.parameters(.auto), depthSize: depth, alphaSize: colour,
                                     projection: projection)
            return SceneRun(scene: scene, engine: engine, frames: 0..<20)
        }
        let projected = try run(offset)
        let ignoringOffset = try run(SIMD3<Float>(0, 0, 0))
        #expect(projected.mean >= 0.95, "mean IoU \(projected.mean)")
        #expect(projected.worst >= 0.93, "worst IoU \(projected.worst)")
        #expect(ignoringOffset.mean < projected.mean - 0.1, "offset ignored: \(ignoringOffset.mean)")
    }

    /// A person holding still: sensor noise alone changes the depth. Temporal smoothing must cut
    /// the frame-to-frame alpha change, not just leave it as it was.
    @Test func staticSubjectDoesNotFlicker() throws {
        let size = FrameSize(width: 320, height: 240)
        func run(temporal: Int) throws -> SceneRun {
            let scene = SyntheticScene(seed: 3, colourSize: size)
            scene.moving = false
            var parameters = Self.parameters(.fixed)
            parameters.temporalPercent = temporal
            let engine = try MatteEngine(parameters: parameters, depthSize: size, alphaSize: size)
            return SceneRun(scene: scene, engine: engine, frames: 0..<40)
        }
        let smoothed = try run(temporal: 80)
        let raw = try run(temporal: 0)
        #expect(Double(smoothed.alphaChange) < 0.6 * Double(raw.alphaChange),
                "alpha change \(smoothed.alphaChange) smoothed vs \(raw.alphaChange) raw")
        #expect(smoothed.toggles < raw.toggles)
        #expect(smoothed.toggles / 39 < size.pixelCount / 1000, "\(smoothed.toggles / 39) pixels cross 50 % per frame")
        #expect(smoothed.mean >= 0.97)
    }

    /// Heavy smoothing must not drag a moving person behind: each frame still matches its own truth.
    @Test func movingSubjectIsFollowedWithinAFrame() throws {
        let size = FrameSize(width: 320, height: 240)
        let scene = SyntheticScene(seed: 4, colourSize: size)
        var parameters = Self.parameters(.auto)
        parameters.temporalPercent = 90
        let engine = try MatteEngine(parameters: parameters, depthSize: size, alphaSize: size)
        let run = SceneRun(scene: scene, engine: engine, frames: 0..<90)
        #expect(run.worst >= 0.95, "worst IoU \(run.worst)")
    }
}
