@testable import Compose
import Frames
import Testing

/// Which mappings the scaled frame path stretches by overlapping four-word stores
/// (`SplatStretch`), and that the words it leaves are the mapping's table at every column of any
/// span of camera columns. The blended frames are checked against the gather path in
/// ScaledComposeTests.
@Suite struct SplatStretchTests {
    static let fullHD = FrameSize(width: 1920, height: 1080)

    static func compositor(_ camera: FrameSize, _ output: FrameSize, _ fit: FitMode) -> Compositor {
        Compositor(cameraFormat: .yuyv, cameraSize: camera, outputSize: output, fit: fit)
    }

    @Test func theBoxCamerasWithNoPeriodTakeItAndLongRunsAndDownscalesDoNot() {
        for (camera, fit) in [(FrameSize(width: 848, height: 480), FitMode.fill), (FrameSize(width: 848, height: 480), .fit),
                              (FrameSize(width: 640, height: 480), .fit)] {
            let compositor = Self.compositor(camera, Self.fullHD, fit)
            #expect(compositor.periodicStretch == nil && compositor.splatStretch, "\(camera.description) \(fit.name)")
        }
        // 22 -> 101 has runs of five columns; 150 -> 67 stores more camera words than output ones.
        #expect(!Self.compositor(FrameSize(width: 22, height: 20), FrameSize(width: 101, height: 40), .stretch).splatStretch)
        #expect(!Self.compositor(FrameSize(width: 150, height: 90), FrameSize(width: 67, height: 41), .fill).splatStretch)
    }

    /// The stretch over camera columns a..<b against the table, for every a and a run of
    /// lengths b - a (the four-wide loop, its tail, and both together).
    @Test(arguments: [(FrameSize(width: 848, height: 480), FrameSize(width: 1920, height: 1080), FitMode.fit),
                      (FrameSize(width: 62, height: 20), FrameSize(width: 77, height: 40), .fill),    // runs 1, 2; starts at column 11
                      (FrameSize(width: 30, height: 20), FrameSize(width: 113, height: 40), .stretch), // runs 3, 4
                      (FrameSize(width: 62, height: 46), FrameSize(width: 201, height: 113), .fit)])   // letterboxed, runs 2, 3
    func theStoredWordsAreTheTableOverEverySpan(camera: FrameSize, output: FrameSize, fit: FitMode) {
        let mapping = CameraMapping(camera: camera, output: output, fit: fit)
        let active = mapping.activeColumns
        // firstOutputColumn as the compositor builds it.
        var first = [Int32](repeating: Int32(active.upperBound), count: camera.width + 1)
        var x = active.lowerBound
        for c in 0...camera.width {
            while x < active.upperBound && Int(mapping.sourceColumn[x]) < c { x += 1 }
            first[c] = Int32(x)
        }
        let used = Int(mapping.sourceColumn[active.lowerBound])...Int(mapping.sourceColumn[active.upperBound - 1])
        let cameraRow = UnsafeMutablePointer<UInt32>.allocate(capacity: camera.width)
        defer { cameraRow.deallocate() }
        for c in 0..<camera.width { cameraRow[c] = 0xA500_0000 | UInt32(c) }
        let outputRow = UnsafeMutablePointer<UInt32>.allocate(capacity: output.width + SplatStretch.overrun)
        defer { outputRow.deallocate() }
        var lengths = Array(1...9)
        lengths.append(used.count)
        for start in used {
            for length in lengths where start + length <= used.upperBound + 1 {
                let columns = start..<(start + length)
                outputRow.initialize(repeating: 0xDEAD_BEEF, count: output.width + SplatStretch.overrun)
                first.withUnsafeBufferPointer { table in
                    SplatStretch.stretch(UnsafeRawPointer(cameraRow), into: UnsafeMutableRawPointer(outputRow),
                                         firstOutputColumn: table.baseAddress!, cameraColumns: columns)
                }
                let span = Int(first[columns.lowerBound])..<Int(first[columns.upperBound])
                let wrong = span.first { outputRow[$0] != 0xA500_0000 | UInt32(mapping.sourceColumn[$0]) }
                #expect(wrong == nil, "\(camera.description) -> \(output.description) \(fit.name), camera \(columns)")
            }
        }
    }
}
