import Foundation
import Frames
import Matte
import Testing

/// Auto mode on a real Kinect v1 frame (../shared/data/rgbd/pcl_five_people: five people walking
/// away down a corridor, 1.8-4 m, walls and posters to ~10 m, 22 % holes, depth registered, 1 mm).
/// The nearest person is on the right at ~1.8 m (a second one, left, at ~2.0 m); the rest stand
/// at 2.3-2.8 m. What is checked:
///  - the tracked subject distance lies within the nearest people's range (1.7-2.2 m);
///  - almost no matte pixel has a depth more than 1 m behind the subject (walls, posters, the
///    people further back);
///  - the matte covers a person-sized blob on the right where the nearest person stands, and
///    nothing in the far wall area above the middle people's heads.
@Suite struct KinectFrameTests {
    static let folder: String = {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        return tests.deletingLastPathComponent().appendingPathComponent("../shared/data/rgbd/pcl_five_people")
            .standardizedFileURL.path
    }()

    static var available: Bool { FileManager.default.fileExists(atPath: folder + "/depth/000000.png") }

    @Test(.enabled(if: available, "needs ../shared/data/rgbd/pcl_five_people (real Kinect frame); not present"))
    func autoModeKeepsTheNearestPersonAndNotTheCorridor() throws {
        let png = try #require(GreyPNG(path: Self.folder + "/depth/000000.png"))
        #expect(png.width == 640 && png.height == 480)
        let size = FrameSize(width: png.width, height: png.height)
        let depth = PixelBuffer(format: .z16, size: size)
        let alpha = PixelBuffer(format: .alpha8, size: size)
        for y in 0..<png.height {
            let row = depth.row(y).assumingMemoryBound(to: UInt16.self)
            for x in 0..<png.width { row[x] = png.samples[y * png.width + x] }
        }
        var parameters = MatteParameters()
        parameters.mode = .auto
        let engine = MatteEngine(parameters: parameters, depthSize: size, alphaSize: size)
        engine.process(depth: depth.view, unitMM: 1, into: alpha.view)

        let subject = try #require(engine.subjectDistanceMM)
        #expect((1700...2200).contains(subject), "subject at \(subject) mm")

        var covered = 0
        var behind = 0
        var nearestPerson = 0
        var farWall = 0
        for y in 0..<png.height {
            let a = alpha.row(y).assumingMemoryBound(to: UInt8.self)
            for x in 0..<png.width where a[x] >= 128 {
                covered += 1
                let d = Int(png.samples[y * png.width + x])
                if d > subject + 1000 { behind += 1 }
                if (480..<600).contains(x) && (100..<460).contains(y) { nearestPerson += 1 }
                if (250..<450).contains(x) && (20..<90).contains(y) { farWall += 1 }
            }
        }
        #expect(Double(behind) / Double(max(1, covered)) < 0.005, "\(behind) of \(covered) matte pixels lie > 1 m behind")
        #expect(nearestPerson > 120 * 360 / 2, "nearest person covered: \(nearestPerson) px")
        #expect(farWall == 0)
        #expect(covered > 20_000 && covered < 640 * 480 / 2, "covered \(covered)")
        if let out = ProcessInfo.processInfo.environment["MATTE_DUMP"] {
            let bytes = (0..<png.height).flatMap { y in
                (0..<png.width).map { alpha.row(y).assumingMemoryBound(to: UInt8.self)[$0] }
            }
            FileManager.default.createFile(atPath: out, contents: Data(bytes))
        }
    }
}
