@_spi(Testing) import Frames
@testable import Matte
import MatteReference
@_spi(Testing) import Scenes
import Testing

/// SubjectTracker (four interleaved histograms, shifted bins) against SubjectReference (one plain
/// histogram, the rules in order): the tracked distance after every frame of random booths
/// (a subject of random size and distance before a wall or before nothing, moving, leaving,
/// coming close, in several depth units, regions and bands) and of the synthetic and group
/// scenes.
@Suite struct SubjectReferenceTests {
    static func compare(frames: [[UInt16]], width: Int, height: Int, stride: Int, unitMM: Float,
                        parameters: MatteParameters, _ what: String) -> Int {
        let tracker = SubjectTracker()
        var reference = SubjectReference()
        var tracked = 0
        for (index, depth) in frames.enumerated() {
            depth.withUnsafeBufferPointer {
                tracker.observe(depth: $0.baseAddress!, rowStride: stride, size: FrameSize(width: width, height: height),
                                unitMM: unitMM, parameters: parameters)
            }
            reference.observe(depth: depth, stride: stride, width: width, height: height, unitMM: unitMM,
                              parameters: parameters)
            #expect(tracker.trackedMM == reference.trackedMM,
                    "\(what) frame \(index): tracked \(tracker.trackedMM ?? -1), reference \(reference.trackedMM ?? -1)")
            if reference.trackedMM != nil { tracked += 1 }
        }
        return tracked
    }

    @Test func randomBoothsTrackAsTheReference() {
        var random = DepthKernelIdentityTests.Random(state: 77)
        var trackedFrames = 0
        for (width, height) in [(1, 1), (9, 7), (64, 48), (160, 120), (321, 239), (640, 480), (1280, 720)] {
            for round in 0..<4 {
                let unit: Float = [1, 0.2, 0.25, 4, 0.5, 2][random.below(6)]
                var parameters = MatteParameters()
                parameters.regionPercent = [60, 10, 100, 35][round]
                parameters.hysteresisMM = [80, 0, 300, 15][round]
                parameters.nearMM = [300, 0, 1000, 64][round]
                parameters.subjectMaximumMM = [4000, 2500, 9000, 400][round]
                let stride = width + round
                var distance = 600 + random.below(2500)
                var frames: [[UInt16]] = []
                for frame in 0..<24 {
                    // Steps, jitter within the band, a jump, and frames with nobody.
                    distance = max(50, distance + [0, 5, -5, 60, -60, 400, -400][random.below(7)])
                    let present = frame % 9 < 7
                    let wall = random.below(3) == 0 ? 0 : 2000 + random.below(5000)
                    let size = 1 + random.below(max(1, min(width, height)))
                    let left = random.below(max(1, width - size + 1))
                    let top = random.below(max(1, height - size + 1))
                    var depth = [UInt16](repeating: 0, count: stride * height)
                    for y in 0..<height {
                        for x in 0..<width {
                            var mm = wall + random.below(40)
                            if present && x >= left && x < left + size && y >= top && y < top + size {
                                mm = distance + random.below(300)
                            }
                            if random.below(10) == 0 { mm = 0 }
                            depth[y * stride + x] = UInt16(min(65535, Float(mm) / unit))
                        }
                    }
                    frames.append(depth)
                }
                trackedFrames += Self.compare(frames: frames, width: width, height: height, stride: stride, unitMM: unit,
                                              parameters: parameters, "\(width)x\(height) round \(round) unit \(unit)")
            }
        }
        // Not vacuous: most booths have someone to track.
        #expect(trackedFrames > 200)
    }

    @Test func scenesTrackAsTheReference() {
        let synthetic = SyntheticScene(seed: 3, colourSize: FrameSize(width: 320, height: 240))
        let group = GroupScene(colourSize: FrameSize(width: 320, height: 240))
        for (name, size, render) in [
            ("synthetic", synthetic.depthSize, { (frame: Int, colour: ImageView, depth: ImageView) in
                synthetic.render(frame: frame, color: colour, depth: depth, truth: nil) }),
            ("group", group.depthSize, { (frame: Int, colour: ImageView, depth: ImageView) in
                group.render(frame: frame, color: colour, depth: depth, truth: nil) }),
        ] as [(String, FrameSize, (Int, ImageView, ImageView) -> Void)] {
            let colour = PixelBuffer(format: .rgb24, size: FrameSize(width: 320, height: 240))
            let depth = PixelBuffer(format: .z16, size: size)
            var frames: [[UInt16]] = []
            for frame in 0..<12 {
                render(frame, colour.view, depth.view)
                var packed = [UInt16](repeating: 0, count: size.pixelCount)
                for y in 0..<size.height {
                    let row = depth.view.row(y).assumingMemoryBound(to: UInt16.self)
                    for x in 0..<size.width { packed[y * size.width + x] = row[x] }
                }
                frames.append(packed)
            }
            let tracked = Self.compare(frames: frames, width: size.width, height: size.height, stride: size.width,
                                       unitMM: 1, parameters: MatteParameters(), name)
            #expect(tracked == 12, "\(name): the subject is tracked on every frame")
        }
    }
}
