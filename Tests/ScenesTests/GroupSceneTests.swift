@_spi(Testing) import Frames
@testable import Scenes
import Testing

/// The hard scene's promises: a floor under the feet in depth and not in the truth, three people
/// at their depths, the shadow strip beside an edge, the walker moving 1 m/s, determinism, and the
/// unregistered variant seeing the room from elsewhere.
@Suite struct GroupSceneTests {
    static let size = FrameSize(width: 320, height: 240)

    final class Frame {
        let colour: PixelBuffer
        let depth: PixelBuffer
        let truth: PixelBuffer

        init(_ scene: GroupScene, frame: Int) {
            colour = PixelBuffer(format: .rgb24, size: scene.colourSize)
            depth = PixelBuffer(format: .z16, size: scene.depthSize)
            truth = PixelBuffer(format: .alpha8, size: scene.colourSize)
            scene.render(frame: frame, color: colour.view, depth: depth.view, truth: truth.view)
        }

        func depthAt(_ x: Int, _ y: Int) -> Int { Int(depth.row(y).assumingMemoryBound(to: UInt16.self)[x]) }
        func truthAt(_ x: Int, _ y: Int) -> Bool { truth.row(y).assumingMemoryBound(to: UInt8.self)[x] == 255 }
        /// Median of the readings in a box (holes skipped).
        func medianDepth(_ xs: Range<Int>, _ ys: Range<Int>) -> Int {
            var values: [Int] = []
            for y in ys { for x in xs where depthAt(x, y) > 0 { values.append(depthAt(x, y)) } }
            return values.isEmpty ? 0 : values.sorted()[values.count / 2]
        }
    }

    /// Column of a point at lateral x, depth z, in the registered 320x240 view.
    static func column(_ x: Float, _ z: Float) -> Int {
        let k = SyntheticCamera.typical(width: 320, height: 240)
        return Int(k.fx * x / z + k.cx + 0.5)
    }

    static func row(_ y: Float, _ z: Float) -> Int {
        let k = SyntheticCamera.typical(width: 320, height: 240)
        return Int(k.fy * y / z + k.cy + 0.5)
    }

    @Test func peopleStandAtTheirDepthsOnAFloorTheTruthLeavesOut() {
        let scene = GroupScene(colourSize: Self.size)
        scene.moving = false
        let f = Frame(scene, frame: 0)
        #expect(scene.registered)
        // Torso centres (at chest height, 1250 - 0.64 h below the camera... i.e. y = 0.36 h - h + 1250).
        for (x, z, h) in [(Float(-650), Float(2300), Float(1750)), (820, 2500, 1820), (120, 2900, 1650)] {
            let u = Self.column(x, z)
            let v = Self.row(GroupScene.floorMM - h + 0.36 * h, z)
            let median = f.medianDepth((u - 2)..<(u + 3), (v - 2)..<(v + 3))
            #expect(abs(median - Int(z)) < 120, "torso at \(u),\(v): \(median) mm, wanted about \(z)")
            #expect(f.truthAt(u, v))
        }
        // The floor between the far person's shoes and the bottom edge: depth reads the floor
        // (1250 mm below the camera), truth says background.
        let u = Self.column(120, 2900)
        for v in [226, 232, 238] {
            let z = Float(f.medianDepth((u - 1)..<(u + 2), v..<(v + 1)))
            let k = SyntheticCamera.typical(width: 320, height: 240)
            let expected = GroupScene.floorMM * k.fy / (Float(v) - k.cy)
            #expect(abs(z - expected) < expected * 0.06, "floor row \(v): \(z) mm, wanted \(expected)")
            #expect(!f.truthAt(u, v))
        }
        // The wall above everyone's head.
        #expect(abs(f.medianDepth(150..<170, 5..<15) - Int(GroupScene.wallMM)) < 400)
    }

    @Test func aShadowStripLiesBesideTheNearPersonsEdge() {
        let scene = GroupScene(colourSize: Self.size)
        scene.moving = false
        let f = Frame(scene, frame: 0)
        // Right of the nearest person's torso at chest height, the wall beyond is in shadow:
        // holes within a few pixels of the last subject pixel, on most rows.
        var rowsWithShadow = 0
        for v in 80..<100 {
            var last = -1
            for u in 40..<110 where f.depthAt(u, v) > 0 && f.depthAt(u, v) < 2600 { last = u }
            guard last > 0 else { continue }
            var holes = 0
            for u in (last + 1)..<min(320, last + 6) where f.depthAt(u, v) == 0 { holes += 1 }
            if holes >= 2 { rowsWithShadow += 1 }
        }
        #expect(rowsWithShadow >= 12, "\(rowsWithShadow) of 20 rows have a shadow strip")
    }

    @Test func theWalkerMovesOneMetrePerSecondAndFramesRepeat() {
        let scene = GroupScene(colourSize: Self.size)
        func leftmostTruth(_ f: Frame, row v: Int) -> Int {
            for u in 0..<320 where f.truthAt(u, v) { return u }
            return -1
        }
        let a = Frame(scene, frame: 0)
        let b = Frame(scene, frame: 15)
        let again = Frame(scene, frame: 0)
        // Half a second at 1 m/s is 500 mm: at 2.3 m about 50 columns.
        let moved = leftmostTruth(b, row: 100) - leftmostTruth(a, row: 100)
        #expect(abs(moved - 51) <= 4, "moved \(moved) columns")
        #expect(a.depthAt(100, 100) == again.depthAt(100, 100))
        for u in stride(from: 0, to: 320, by: 7) { #expect(a.depthAt(u, 120) == again.depthAt(u, 120)) }
    }

    @Test func theUnregisteredVariantSeesFromElsewhere() {
        let scene = GroupScene.unregistered(colourSize: Self.size)
        scene.moving = false
        #expect(!scene.registered)
        #expect(scene.depthSize == FrameSize(width: 256, height: 192))
        let f = Frame(scene, frame: 0)
        // The nearest torso centre, projected through the depth camera from 30 mm left of colour.
        let k = scene.depthCamera
        let u = Int(k.fx * (-650 + 30) / 2300 + k.cx + 0.5)
        let v = Int(k.fy * (GroupScene.floorMM - 0.64 * 1750) / 2300 + k.cy + 0.5)
        #expect(abs(f.medianDepth((u - 2)..<(u + 3), (v - 2)..<(v + 3)) - 2300) < 120)
    }

    @Test func aRecordingWrittenWithTruthReadsBack() throws {
        let folder = "/tmp/backdrop-groupscene-\(UInt64.random(in: 0...UInt64.max))"
        let scene = GroupScene.unregistered(colourSize: Self.size)
        var settings = RecordingSettings()
        settings.registered = false
        settings.intrinsics = scene.depthCamera
        settings.frameRate = 15
        var writer = try RecordingWriter(path: folder, settings: settings, withTruth: true)
        let frames = [Frame(scene, frame: 0), Frame(scene, frame: 1)]
        for f in frames { try writer.append(color: f.colour.view, depth: f.depth.view, truth: f.truth.view) }
        let recording = try Recording.open(folder)
        #expect(recording.frameCount == 2)
        #expect(!recording.registered && recording.frameRate == 15)
        let k = try #require(recording.intrinsics)
        #expect(abs(k.fx - scene.depthCamera.fx) < 0.001 && abs(k.cy - scene.depthCamera.cy) < 0.001)
        #expect(recording.frameName(1) == "000001.png")
        let colour = PixelBuffer(format: .rgb24, size: recording.colorSize)
        let depth = PixelBuffer(format: .z16, size: recording.depthSize)
        try recording.load(frame: 1, color: colour.view, depth: depth.view)
        for y in stride(from: 0, to: 192, by: 11) {
            let a = depth.row(y).assumingMemoryBound(to: UInt16.self)
            let b = frames[1].depth.row(y).assumingMemoryBound(to: UInt16.self)
            for x in 0..<256 { #expect(a[x] == b[x]) }
        }
        #expect(RecordingWriter.decimal(-12.3456) == "-12.346")
        #expect(RecordingWriter.decimal(0.2) == "0.200")
    }
}
