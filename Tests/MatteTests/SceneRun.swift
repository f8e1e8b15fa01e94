@_spi(Testing) import Frames
import Matte
import Scenes

/// Plays a synthetic scene through a matte engine and scores each frame against the truth.
struct SceneRun {
    var scores: [Double] = []

    /// Total |alpha change| between consecutive frames, and pixels crossing the 50 % line.
    var alphaChange = 0
    var toggles = 0

    init(scene: SyntheticScene, engine: MatteEngine, frames: Range<Int>) {
        let colour = PixelBuffer(format: .yuyv, size: scene.colourSize)
        let previous = PixelBuffer(format: .alpha8, size: scene.colourSize)
        let depth = PixelBuffer(format: .z16, size: scene.depthSize)
        let truth = PixelBuffer(format: .alpha8, size: scene.colourSize)
        let alpha = PixelBuffer(format: .alpha8, size: scene.colourSize)
        for frame in frames {
            scene.render(frame: frame, color: colour.view, depth: depth.view, truth: truth.view)
            engine.process(depth: depth.view, unitMM: 1, into: alpha.view)
            scores.append(MaskScore(alpha.view, truth.view).iou)
            for y in 0..<scene.colourSize.height {
                let now = alpha.row(y).assumingMemoryBound(to: UInt8.self)
                let before = previous.row(y).assumingMemoryBound(to: UInt8.self)
                for x in 0..<scene.colourSize.width {
                    if frame != frames.lowerBound {
                        alphaChange += abs(Int(now[x]) - Int(before[x]))
                        if (now[x] >= 128) != (before[x] >= 128) { toggles += 1 }
                    }
                    before[x] = now[x]
                }
            }
        }
    }

    var mean: Double { scores.reduce(0, +) / Double(max(1, scores.count)) }
    var worst: Double { scores.min() ?? 0 }
}
