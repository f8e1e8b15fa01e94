import Frames
import Matte
import Scenes

/// Plays a synthetic scene through a matte engine and scores each frame against the truth.
struct SceneRun {
    var scores: [Double] = []

    init(scene: SyntheticScene, engine: MatteEngine, frames: Range<Int>) {
        let colour = PixelBuffer(format: .yuyv, size: scene.colourSize)
        let depth = PixelBuffer(format: .z16, size: scene.depthSize)
        let truth = PixelBuffer(format: .alpha8, size: scene.colourSize)
        let alpha = PixelBuffer(format: .alpha8, size: scene.colourSize)
        for frame in frames {
            scene.render(frame: frame, color: colour.view, depth: depth.view, truth: truth.view)
            engine.process(depth: depth.view, unitMM: 1, into: alpha.view)
            scores.append(MaskScore(alpha.view, truth.view).iou)
        }
    }

    var mean: Double { scores.reduce(0, +) / Double(max(1, scores.count)) }
    var worst: Double { scores.min() ?? 0 }
}
