@_spi(Testing) import Frames
import Matte
import Scenes
import Testing

/// Hair strands and fingers (GroupScene's shapes at most 20 mm across: 1-3 colour pixels at
/// 2.3-2.9 m, below what the depth grid resolves), scored on their own: recall (the share of
/// their truth pixels the matte keeps at alpha >= 128), and IoU and boundary F (2 px) inside the
/// region within 3 px of them (matte and truth both cut to that region), depth alone against
/// colour-guided edges, on the moving group.
@Suite struct ThinStructureTests {
    struct Scores {
        var kept = 0
        var thinPixels = 0
        var intersection = 0
        var union = 0
        var recall: Double { Double(kept) / Double(max(1, thinPixels)) }
        var iou: Double { Double(intersection) / Double(max(1, union)) }
    }

    static func score(_ scene: GroupScene, size: FrameSize, projection: DepthProjection?, colourGuided: Bool,
                      frames: Int = 8) throws -> (Scores, MatteEvaluation.Summary) {
        let engine = try MatteEngine(parameters: MatteParameters(), depthSize: scene.depthSize, alphaSize: size,
                                 projection: projection)
        let colour = PixelBuffer(format: .rgb24, size: size)
        let depth = PixelBuffer(format: .z16, size: scene.depthSize)
        let truth = PixelBuffer(format: .alpha8, size: size)
        let thin = PixelBuffer(format: .alpha8, size: size)
        let alpha = PixelBuffer(format: .alpha8, size: size)
        let regionAlpha = PixelBuffer(format: .alpha8, size: size)
        let regionTruth = PixelBuffer(format: .alpha8, size: size)
        let evaluation = try MatteEvaluation(size: size)
        var scores = Scores()
        let reach = 3
        for frame in 0..<frames {
            scene.render(frame: frame, color: colour.view, depth: depth.view, truth: truth.view, thin: thin.view)
            engine.process(depth: depth.view, unitMM: 1, colour: colourGuided ? colour.view : nil, into: alpha.view)
            for y in 0..<size.height {
                let a = alpha.row(y).assumingMemoryBound(to: UInt8.self)
                let t = truth.row(y).assumingMemoryBound(to: UInt8.self)
                let ra = regionAlpha.row(y).assumingMemoryBound(to: UInt8.self)
                let rt = regionTruth.row(y).assumingMemoryBound(to: UInt8.self)
                let th = thin.row(y).assumingMemoryBound(to: UInt8.self)
                for x in 0..<size.width {
                    if th[x] != 0 {
                        scores.thinPixels += 1
                        if a[x] >= 128 { scores.kept += 1 }
                    }
                    var inRegion = false
                    search: for yy in max(0, y - reach)...min(size.height - 1, y + reach) {
                        let row = thin.row(yy).assumingMemoryBound(to: UInt8.self)
                        for xx in max(0, x - reach)...min(size.width - 1, x + reach) where row[xx] != 0 {
                            inRegion = true
                            break search
                        }
                    }
                    ra[x] = inRegion ? a[x] : 0
                    rt[x] = inRegion ? t[x] : 0
                    if inRegion {
                        let matte = a[x] >= 128
                        let truthIn = t[x] >= 128
                        if matte && truthIn { scores.intersection += 1 }
                        if matte || truthIn { scores.union += 1 }
                    }
                }
            }
            evaluation.add(alpha: regionAlpha.view, truth: regionTruth.view)
        }
        return (scores, evaluation.summary)
    }

    @Test(arguments: [(320, true), (640, true), (320, false)])
    func colourGuidedEdgesKeepHairAndFingers(width: Int, registered: Bool) throws {
        let size = FrameSize(width: width, height: width * 3 / 4)
        let scene = registered ? GroupScene(colourSize: size) : GroupScene.unregistered(colourSize: size)
        let projection = registered ? nil : DepthProjection(depth: scene.depthCamera, colour: scene.colourCamera,
                                                            translationMM: scene.colourOffsetMM)
        let (depthOnly, depthSummary) = try Self.score(scene, size: size, projection: projection, colourGuided: false)
        let (guided, guidedSummary) = try Self.score(scene, size: size, projection: projection, colourGuided: true)
        let name = "\(width)x\(size.height) \(registered ? "registered" : "unregistered")"
        print("thin structures \(name) (\(guided.thinPixels) pixels): depth alone recall \(depthOnly.recall), "
              + "IoU \(depthOnly.iou), boundary F \(depthSummary.meanBoundaryF); colour-guided recall \(guided.recall), "
              + "IoU \(guided.iou), boundary F \(guidedSummary.meanBoundaryF)")
        #expect(guided.thinPixels > 0)
        #expect(guided.recall > depthOnly.recall, "\(name): recall \(guided.recall) <= \(depthOnly.recall)")
        #expect(guided.iou > depthOnly.iou, "\(name): IoU \(guided.iou) <= \(depthOnly.iou)")
    }
}
