@_spi(Testing) import Frames
@testable import Matte
import Testing

/// ColourProbe.colours, the run form ColourEdges decides from (16 YUYV pixels at a time in
/// lanes), against `colour(x:y:)`, the pixel form: the same R, G, B for every Y, Cb, Cr, and for
/// runs of every start parity and length, up to the row's last pixel.
@Suite struct ColourProbeTests {
    @Test func yuyvRunsAreThePixelColoursForEveryYCbCr() throws {
        // Row cb * 256 + cr: pixel i has Y = i and every pair Cb = cb, Cr = cr.
        let size = FrameSize(width: 256, height: 65536)
        let frame = PixelBuffer(format: .yuyv, size: size)
        for row in 0..<size.height {
            let p = frame.view.row(row).assumingMemoryBound(to: UInt8.self)
            for x in 0..<size.width {
                p[2 * x] = UInt8(x)
                p[2 * x + 1] = UInt8(x & 1 == 0 ? row >> 8 : row & 0xFF)
            }
        }
        let probe = ColourProbe(frame.view)
        let lanes = try EdgeLanes(capacity: size.width)
        var differing = 0
        for row in 0..<size.height {
            probe.colours(x: 0, y: row, count: size.width, r: lanes.colourR, g: lanes.colourG, b: lanes.colourB)
            for x in 0..<size.width {
                let c = probe.colour(x: x, y: row)
                if c != SIMD3(lanes.colourR[x], lanes.colourG[x], lanes.colourB[x]) { differing += 1 }
            }
        }
        #expect(differing == 0)
    }

    @Test func yuyvRunsOfEveryStartAndLength() throws {
        let size = FrameSize(width: 70, height: 3)
        let frame = PixelBuffer(format: .yuyv, size: size)
        var noise = EdgeLanesTests.Noise(state: 0x9E37_79B9_7F4A_7C15)
        for row in 0..<size.height {
            let p = frame.view.row(row).assumingMemoryBound(to: UInt8.self)
            for i in 0..<(2 * size.width) { p[i] = UInt8(noise.next(256)) }
        }
        let probe = ColourProbe(frame.view)
        let lanes = try EdgeLanes(capacity: size.width)
        var differing = 0
        var runs = 0
        for row in 0..<size.height {
            for x in 0..<size.width {
                for count in 1...(size.width - x) {
                    // What lies around the run must not matter, nor be needed.
                    for k in -1..<(count + 15) {
                        lanes.colourR[k] = -7
                        lanes.colourG[k] = -7
                        lanes.colourB[k] = -7
                    }
                    probe.colours(x: x, y: row, count: count, r: lanes.colourR, g: lanes.colourG, b: lanes.colourB)
                    for k in 0..<count where probe.colour(x: x + k, y: row)
                        != SIMD3(lanes.colourR[k], lanes.colourG[k], lanes.colourB[k]) {
                        differing += 1
                    }
                    runs += 1
                }
            }
        }
        #expect(differing == 0, "\(differing) pixels differ in \(runs) runs")
    }
}
