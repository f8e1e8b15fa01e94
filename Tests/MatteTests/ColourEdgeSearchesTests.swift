@_spi(Testing) import Frames
@testable import Matte
import Scenes
import Testing

/// ColourEdges' remembered column searches and word-wise scan, its marking along rows from the
/// row above's changes and its vector search for shadow strips, against the plain walks, scan,
/// marking and run walk they replaced (`vectorisedEdges` false keeps those): the same alpha, byte for
/// byte, on the bench's scene at the box's sizes (colour above depth resolution too, where colour
/// rows share a work row and the searches reach farther) and on the real Kinect frame.
@Suite struct ColourEdgeSearchesTests {
    static func differing(_ a: ImageView, _ b: ImageView) -> (differing: Int, partial: Int) {
        var differing = 0
        var partial = 0
        for y in 0..<a.size.height {
            let p = a.row(y).assumingMemoryBound(to: UInt8.self)
            let q = b.row(y).assumingMemoryBound(to: UInt8.self)
            for x in 0..<a.size.width {
                if p[x] != q[x] { differing += 1 }
                if p[x] > 0 && p[x] < 255 { partial += 1 }
            }
        }
        return (differing, partial)
    }

    @Test(arguments: [(640, 480, 640, 480), (1280, 720, 1280, 720), (1280, 720, 640, 480), (848, 480, 424, 240)])
    func rememberedSearchesGiveTheWalkedMatte(colourWidth: Int, colourHeight: Int, depthWidth: Int, depthHeight: Int) throws {
        let size = FrameSize(width: colourWidth, height: colourHeight)
        let depthSize = FrameSize(width: depthWidth, height: depthHeight)
        let scene = try SyntheticScene.allocating(seed: 7, colourSize: size, depthSize: depthSize)
        let colour = PixelBuffer(format: .yuyv, size: size)
        let depth = PixelBuffer(format: .z16, size: depthSize)
        let a = PixelBuffer(format: .alpha8, size: size)
        let b = PixelBuffer(format: .alpha8, size: size)
        for feather in [0, 3, 8] {
            var parameters = MatteParameters()
            parameters.featherPixels = feather
            let fast = try MatteEngine(parameters: parameters, depthSize: depthSize, alphaSize: size)
            let reference = try MatteEngine(parameters: parameters, depthSize: depthSize, alphaSize: size)
            reference.vectorisedEdges = false
            var partial = 0
            for frame in [0, 5, 11] {
                scene.render(frame: frame, color: colour.view, depth: depth.view, truth: nil)
                fast.process(depth: depth.view, unitMM: 1, colour: colour.view, into: a.view)
                reference.process(depth: depth.view, unitMM: 1, colour: colour.view, into: b.view)
                let d = Self.differing(a.view, b.view)
                #expect(d.differing == 0, "\(size) from \(depthSize), feather \(feather), frame \(frame): \(d.differing) pixels differ")
                partial += d.partial
            }
            #expect(partial > 1000, "only \(partial) edge pixels")
        }
    }

    @Test(.enabled(if: KinectFrameTests.available, "needs ../shared/data/rgbd/pcl_five_people (real Kinect frame); not present"))
    func rememberedSearchesGiveTheWalkedMatteOnTheKinectFrame() throws {
        let recording = try Recording.open(KinectFrameTests.folder)
        let size = FrameSize(width: 640, height: 480)
        let rgb = PixelBuffer(format: .rgb24, size: size)
        let depth = PixelBuffer(format: .z16, size: size)
        try recording.load(frame: 0, color: rgb.view, depth: depth.view)
        let a = PixelBuffer(format: .alpha8, size: size)
        let b = PixelBuffer(format: .alpha8, size: size)
        let fast = try MatteEngine(parameters: MatteParameters(), depthSize: size, alphaSize: size)
        let reference = try MatteEngine(parameters: MatteParameters(), depthSize: size, alphaSize: size)
        reference.vectorisedEdges = false
        fast.process(depth: depth.view, unitMM: 1, colour: rgb.view, into: a.view)
        reference.process(depth: depth.view, unitMM: 1, colour: rgb.view, into: b.view)
        let d = Self.differing(a.view, b.view)
        #expect(d.differing == 0, "\(d.differing) pixels differ")
        #expect(d.partial > 1000)
    }

    /// A subject reaching both sides of the frame, with notches a pixel or few from each edge:
    /// the marks of the first and last `reach` columns (worked out from the changes near them,
    /// not in lanes) against the plain marking.
    @Test func subjectAtTheFrameEdgesGivesTheWalkedMatte() throws {
        let size = FrameSize(width: 160, height: 120)
        let canvas = DepthCanvas(depthSize: size)
        canvas.fill(3000)
        canvas.fill(x: 0..<160, y: 20..<110, 1200)
        for y in 20..<110 {
            // Background notches starting 1...5 columns in from each edge, each the same in two
            // rows (a row like the one above keeps its marks there from that row's).
            let k = y / 2
            canvas.fill(x: 1 + k % 5..<(3 + k % 5 + k % 3), y: y..<(y + 1), 3000)
            canvas.fill(x: (157 - k % 5 - k % 3)..<(159 - k % 5), y: y..<(y + 1), 3000)
        }
        let colour = PixelBuffer(format: .rgb24, size: size)
        var noise = EdgeLanesTests.Noise(state: 0xD1B5_4A32_D192_ED03)
        for y in 0..<size.height {
            let line = colour.view.row(y).assumingMemoryBound(to: UInt8.self)
            // Colour unrelated to depth, so that an uncertain pixel is decided differently from
            // the depth matte and a mark missed or added shows in the alpha.
            for i in 0..<(3 * size.width) { line[i] = UInt8(noise.next(256)) }
        }
        let a = PixelBuffer(format: .alpha8, size: size)
        let b = PixelBuffer(format: .alpha8, size: size)
        let fast = try MatteEngine(parameters: MatteParameters(), depthSize: size, alphaSize: size)
        let reference = try MatteEngine(parameters: MatteParameters(), depthSize: size, alphaSize: size)
        reference.vectorisedEdges = false
        fast.process(depth: canvas.depth.view, unitMM: 1, colour: colour.view, into: a.view)
        reference.process(depth: canvas.depth.view, unitMM: 1, colour: colour.view, into: b.view)
        let d = Self.differing(a.view, b.view)
        #expect(d.differing == 0, "\(d.differing) pixels differ")
        #expect(d.partial > 100, "only \(d.partial) edge pixels")
    }
}
