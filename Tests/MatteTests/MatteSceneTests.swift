import Frames
import Matte
import Scenes
import Testing

/// The matte against the synthetic scene's ground truth: a person swaying at ~1.2 m before a
/// wall at 3 m, with sensor noise, shadows, flying pixels and dropouts.
@Suite struct MatteSceneTests {
    static func parameters(_ mode: MatteParameters.Mode) -> MatteParameters {
        var parameters = MatteParameters()
        parameters.mode = mode
        parameters.nearMM = 300
        parameters.farMM = 2000
        // The defaults are for 640x480 depth; this is a quarter of the pixels.
        parameters.minimumBlobPixels = 100
        return parameters
    }

    @Test(arguments: [MatteParameters.Mode.fixed, .auto])
    func followsTheTruthOver300Frames(mode: MatteParameters.Mode) {
        let size = FrameSize(width: 320, height: 240)
        let scene = SyntheticScene(seed: 7, colourSize: size)
        let engine = MatteEngine(parameters: Self.parameters(mode), depthSize: size, alphaSize: size)
        let run = SceneRun(scene: scene, engine: engine, frames: 0..<300)
        print("IoU \(mode.name) 320x240: mean \(run.mean) worst \(run.worst)")
        #expect(run.mean >= 0.97)
        #expect(run.worst >= 0.93)
    }
}
