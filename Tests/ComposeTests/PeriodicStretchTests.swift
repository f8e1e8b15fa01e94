@testable import Compose
import Frames
import Testing

/// Which mappings the scaled frame path blends through lane shuffles (`PeriodicStretch`), and that
/// the pattern it finds is the mapping's table at every active column. The shuffled blend's bytes
/// are checked against the gather path in ScaledComposeTests.
@Suite struct PeriodicStretchTests {
    static let fullHD = FrameSize(width: 1920, height: 1080)

    static func pattern(_ camera: FrameSize, _ output: FrameSize, _ fit: FitMode) -> PeriodicStretch? {
        let mapping = CameraMapping(camera: camera, output: output, fit: fit)
        return PeriodicStretch.find(sourceColumn: mapping.sourceColumn, active: mapping.activeColumns)
    }

    @Test func theBoxCamerasUnderFullHD() {
        #expect(Self.pattern(FrameSize(width: 1280, height: 720), Self.fullHD, .fill)?.ratio == .twoToThree)
        #expect(Self.pattern(FrameSize(width: 1280, height: 720), Self.fullHD, .stretch)?.ratio == .twoToThree)
        #expect(Self.pattern(FrameSize(width: 640, height: 480), Self.fullHD, .fill)?.ratio == .oneToThree)
        // 848 columns over 1920 (and 640 fitted into 1440) have no three-column period.
        #expect(Self.pattern(FrameSize(width: 848, height: 480), Self.fullHD, .fill) == nil)
        #expect(Self.pattern(FrameSize(width: 640, height: 480), Self.fullHD, .fit) == nil)
        #expect(Compositor(cameraFormat: .yuyv, cameraSize: FrameSize(width: 1280, height: 720), outputSize: Self.fullHD,
                           fit: .fill).periodicStretch?.ratio == .twoToThree)
    }

    @Test func theFoundPatternIsTheTableAtEveryActiveColumn() {
        // Letterboxed (fit) and small cases put the period's origin at each phase.
        let cases: [(FrameSize, FrameSize, FitMode)] = [
            (FrameSize(width: 1280, height: 720), Self.fullHD, .fill),
            (FrameSize(width: 640, height: 480), Self.fullHD, .fill),
            (FrameSize(width: 62, height: 46), FrameSize(width: 93, height: 69), .fill),   // 2:3 from column 0
            (FrameSize(width: 62, height: 46), FrameSize(width: 101, height: 69), .fit),   // 2:3 from column 4
            (FrameSize(width: 20, height: 20), FrameSize(width: 34, height: 30), .fit),    // 2:3 from column 2
            (FrameSize(width: 40, height: 20), FrameSize(width: 51, height: 30), .fill),   // 2:3 from camera column 3
            (FrameSize(width: 32, height: 46), FrameSize(width: 96, height: 100), .fill),  // 1:3 from column 0
            (FrameSize(width: 20, height: 20), FrameSize(width: 62, height: 60), .fit),    // 1:3 from column 1
        ]
        var origins = Set<Int>()
        for (camera, output, fit) in cases {
            let mapping = CameraMapping(camera: camera, output: output, fit: fit)
            let found = PeriodicStretch.find(sourceColumn: mapping.sourceColumn, active: mapping.activeColumns)
            #expect(found != nil, "\(camera.description) -> \(output.description) \(fit.name)")
            guard let found else { continue }
            origins.insert(found.origin % 3)
            let base = mapping.sourceColumn[found.origin]
            for x in mapping.activeColumns {
                #expect(mapping.sourceColumn[x] == base + found.relative(x), "column \(x)")
                #expect((x + found.columnsToPeriod(x) - found.origin) % 3 == 0 && found.columnsToPeriod(x) < 3)
            }
        }
        #expect(origins.count == 3, "every phase of the period is exercised")
    }

    @Test func aTableOffThePatternAnywhereIsRefused() {
        let good = (0..<30).map { Int32((2 * $0 + 1) * 2 / 6) }  // two to three
        #expect(PeriodicStretch.find(sourceColumn: good, active: 0..<30)?.ratio == .twoToThree)
        for broken in [0, 13, 29] {
            var table = good
            table[broken] += 1
            #expect(PeriodicStretch.find(sourceColumn: table, active: 0..<30) == nil, "broken at \(broken)")
        }
    }
}
