@_spi(Testing) import Frames
import Matte
import Testing

/// `backdrop eval`'s figures on masks whose answers are known by construction.
@Suite struct MatteEvaluationTests {
    static let size = FrameSize(width: 64, height: 48)

    static func square(_ buffer: borrowing PixelBuffer, x0: Int, y0: Int, side: Int, value: UInt8 = 255) {
        for y in 0..<size.height {
            let row = buffer.row(y).assumingMemoryBound(to: UInt8.self)
            for x in 0..<size.width {
                row[x] = (x0..<(x0 + side)).contains(x) && (y0..<(y0 + side)).contains(y) ? value : 0
            }
        }
    }

    @Test func aPerfectMatteScoresOne() throws {
        let truth = PixelBuffer(format: .alpha8, size: Self.size)
        Self.square(truth, x0: 10, y0: 10, side: 20)
        let evaluation = try MatteEvaluation(size: Self.size)
        for _ in 0..<3 { evaluation.add(alpha: truth.view, truth: truth.view) }
        let s = evaluation.summary
        #expect(s.frames == 3 && s.meanIoU == 1 && s.minimumIoU == 1 && s.meanBoundaryF == 1)
        #expect(s.flicker == 0 && s.lagFrames == 0)
    }

    @Test func aShiftWithinTwoPixelsKeepsTheBoundaryButNotTheIoU() throws {
        let truth = PixelBuffer(format: .alpha8, size: Self.size)
        let alpha = PixelBuffer(format: .alpha8, size: Self.size)
        Self.square(truth, x0: 10, y0: 10, side: 20)
        Self.square(alpha, x0: 12, y0: 10, side: 20)
        let near = try MatteEvaluation(size: Self.size)
        near.add(alpha: alpha.view, truth: truth.view)
        // 18 x 20 shared of 22 x 20.
        #expect(abs(near.summary.meanIoU - 360.0 / 440.0) < 1e-9)
        #expect(near.summary.meanBoundaryF == 1)
        Self.square(alpha, x0: 14, y0: 10, side: 20)
        let far = try MatteEvaluation(size: Self.size)
        far.add(alpha: alpha.view, truth: truth.view)
        #expect(far.summary.meanBoundaryF < 0.8)
    }

    @Test func flickerCountsOnlyStillTruthAndLagSeesATrailingMatte() throws {
        let truth = PixelBuffer(format: .alpha8, size: Self.size)
        let alpha = PixelBuffer(format: .alpha8, size: Self.size)
        let evaluation = try MatteEvaluation(size: Self.size)
        // The truth square moves 4 px a frame; the matte shows where it was a frame ago.
        for frame in 0..<6 {
            Self.square(truth, x0: 8 + 4 * frame, y0: 10, side: 16)
            Self.square(alpha, x0: 8 + 4 * max(0, frame - 1), y0: 10, side: 16)
            evaluation.add(alpha: alpha.view, truth: truth.view)
        }
        #expect(evaluation.summary.lagFrames == 1)
        // Still truth, one pixel of the matte toggling by 100 each frame.
        let still = try MatteEvaluation(size: Self.size)
        Self.square(truth, x0: 8, y0: 8, side: 16)
        for frame in 0..<5 {
            Self.square(alpha, x0: 8, y0: 8, side: 16)
            alpha.row(0).assumingMemoryBound(to: UInt8.self)[0] = frame % 2 == 0 ? 0 : 100
            still.add(alpha: alpha.view, truth: truth.view)
        }
        #expect(abs(still.summary.flicker - 100.0 / Double(Self.size.pixelCount)) < 1e-9)
    }
}
