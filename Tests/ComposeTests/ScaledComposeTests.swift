@testable import Compose
@_spi(Testing) import Frames
import Testing

/// The row-buffer path (`scratch:`) against the per-pixel gather path on the cases where they
/// differ in how they work: a camera smaller than the output, odd sizes, every fit mode and camera
/// format, both layer kinds, and bands that start inside a run of repeated rows. They must agree
/// bit for bit.
@Suite struct ScaledComposeTests {
    typealias F = ComposeFixtures

    static func camera(_ format: PixelFormat, _ size: FrameSize) -> PixelBuffer {
        let luma: (Int, Int) -> UInt8 = { x, y in F.noise(x, y, 21) }
        let chroma: (Int, Int) -> (UInt8, UInt8) = { pair, y in (F.noise(pair, y / 2 * 2, 22), F.noise(pair, y / 2 * 2, 23)) }
        switch format {
        case .yuyv: return F.yuyv(size, luma: luma, chroma: chroma)
        case .nv12: return F.nv12(size, luma: luma, chroma: chroma)
        default: return F.rgb(size) { x, y in (F.noise(x, y, 24), F.noise(x, y, 25), F.noise(x, y, 26)) }
        }
    }

    /// Alpha with the values that matter for rounding (0, 255, 1, 254, 128) as well as noise.
    static func alpha(_ size: FrameSize) -> PixelBuffer {
        F.alpha(size) { x, y in
            let pick = F.noise(x, y, 27)
            return [0, 255, 1, 254, 128][Int(pick) % 5] ^ (pick > 200 ? pick : 0)
        }
    }

    /// A matte that is mostly 0, as a real one is: islands of every width from one pixel up, some
    /// on the edges of the compositor's 16-column chunks, whole empty rows, and a row covered
    /// edge to edge; so the scaled path's covered spans start, end and merge everywhere.
    static func sparseAlpha(_ size: FrameSize) -> PixelBuffer {
        F.alpha(size) { x, y in
            switch y % 7 {
            case 0: return 0
            case 1: return x == 15 || x == 16 || x == 31 || x == size.width - 1 ? 255 : 0
            case 2: return 200
            default:
                let island = F.noise(x / (1 + y % 5), y, 28) > 225
                return island ? [255, 1, 128][x % 3] : 0
            }
        }
    }

    /// Output rows split into uneven bands, as the workers might split them.
    static func bands(_ height: Int) -> [Range<Int>] {
        let cuts = [0, height / 3 + 1, height / 2, height - 1, height].sorted()
        return (0..<(cuts.count - 1)).map { cuts[$0]..<cuts[$0 + 1] }.filter { !$0.isEmpty }
    }

    static func compare(format: PixelFormat, camera cameraSize: FrameSize, output outputSize: FrameSize, fit: FitMode,
                        sparse: Bool = false) {
        let image = camera(format, cameraSize)
        let matte = sparse ? sparseAlpha(cameraSize) : alpha(cameraSize)
        // The X byte varies: the frame's is 255 whatever the backdrop's.
        let background = F.xrgb(outputSize) { x, y in
            UInt32(F.noise(x, y, 29)) << 24 | UInt32(x * 13 % 256) << 16 | UInt32(y * 7 % 256) << 8 | UInt32((x ^ y) & 0xFF)
        }
        let compositor = Compositor(cameraFormat: format, cameraSize: cameraSize, outputSize: outputSize, fit: fit)
        let scratch = compositor.makeScratch()
        let label = "\(format.name) \(cameraSize.description) -> \(outputSize.description) \(fit.name)"

        let gathered = PixelBuffer(format: .xrgb8888, size: outputSize)
        let rowWise = PixelBuffer(format: .xrgb8888, size: outputSize)
        compositor.compose(camera: image.view, alpha: matte.view, background: background.view, into: gathered.view,
                           rows: 0..<outputSize.height)
        for band in bands(outputSize.height) {
            compositor.compose(camera: image.view, alpha: matte.view, background: background.view, into: rowWise.view,
                               rows: band, scratch: scratch)
        }
        #expect(firstDifference(gathered, rowWise, outputSize) == nil, "frame, \(label)")

        for premultiplied in [true, false] {
            let gatheredLayer = PixelBuffer(format: .argb8888, size: outputSize)
            let rowWiseLayer = PixelBuffer(format: .argb8888, size: outputSize)
            compositor.writeLayer(camera: image.view, alpha: matte.view, into: gatheredLayer.view,
                                  rows: 0..<outputSize.height, premultiplied: premultiplied)
            for band in bands(outputSize.height) {
                compositor.writeLayer(camera: image.view, alpha: matte.view, into: rowWiseLayer.view, rows: band,
                                      premultiplied: premultiplied, scratch: scratch)
            }
            #expect(firstDifference(gatheredLayer, rowWiseLayer, outputSize) == nil,
                    "layer premultiplied \(premultiplied), \(label)")
        }
    }

    static func firstDifference(_ a: borrowing PixelBuffer, _ b: borrowing PixelBuffer, _ size: FrameSize) -> String? {
        for y in 0..<size.height {
            for x in 0..<size.width where F.pixel(a, x, y) != F.pixel(b, x, y) {
                return "at \(x),\(y): \(F.pixel(a, x, y)) vs \(F.pixel(b, x, y))"
            }
        }
        return nil
    }

    @Test(arguments: FitMode.allCases)
    func aVGACameraUnderFullHDMatchesTheGatherPath(fit: FitMode) {
        Self.compare(format: .yuyv, camera: FrameSize(width: 640, height: 480), output: FrameSize(width: 1920, height: 1080), fit: fit)
    }

    @Test func theOtherBoxCamerasUnderFullHDMatchTheGatherPath() {
        for camera in [FrameSize(width: 848, height: 480), FrameSize(width: 1280, height: 720)] {
            Self.compare(format: .yuyv, camera: camera, output: FrameSize(width: 1920, height: 1080), fit: .fill)
        }
    }

    @Test func oddSizesEveryFormatAndFitMatchTheGatherPath() {
        // Odd output sizes and a camera whose used columns start off a pixel pair; scalar tails.
        let cases = [(FrameSize(width: 62, height: 46), FrameSize(width: 201, height: 113)),
                     (FrameSize(width: 34, height: 30), FrameSize(width: 99, height: 37)),
                     (FrameSize(width: 150, height: 90), FrameSize(width: 67, height: 41))]  // downscale
        for format in [PixelFormat.yuyv, .nv12, .rgb24] {
            for (camera, output) in cases {
                for fit in FitMode.allCases { Self.compare(format: format, camera: camera, output: output, fit: fit) }
            }
        }
    }

    @Test func aMostlyEmptyMatteMatchesTheGatherPathWhereOnlyItsSpansAreBlended() {
        let cases = [(FrameSize(width: 640, height: 480), FrameSize(width: 1920, height: 1080)),
                     (FrameSize(width: 1280, height: 720), FrameSize(width: 1920, height: 1080)),
                     (FrameSize(width: 62, height: 46), FrameSize(width: 201, height: 113)),
                     (FrameSize(width: 150, height: 90), FrameSize(width: 67, height: 41))]
        for format in [PixelFormat.yuyv, .nv12, .rgb24] {
            for (camera, output) in cases {
                for fit in FitMode.allCases { Self.compare(format: format, camera: camera, output: output, fit: fit, sparse: true) }
            }
        }
    }

    @Test func threeColumnPeriodsInEveryPhaseMatchTheGatherPath() {
        // Two to three and one to three (PeriodicStretch), letterboxed so the period starts at
        // each phase, with spans of every length from the sparse matte. Cropped to odd camera
        // columns (40x20 fill), the covered chunks start in the middle of a period.
        let cases = [(FrameSize(width: 62, height: 46), FrameSize(width: 93, height: 69)),
                     (FrameSize(width: 40, height: 20), FrameSize(width: 51, height: 30)),
                     (FrameSize(width: 40, height: 20), FrameSize(width: 55, height: 30)),
                     (FrameSize(width: 62, height: 46), FrameSize(width: 101, height: 69)),
                     (FrameSize(width: 20, height: 20), FrameSize(width: 34, height: 30)),
                     (FrameSize(width: 32, height: 46), FrameSize(width: 96, height: 100)),
                     (FrameSize(width: 20, height: 20), FrameSize(width: 62, height: 60))]
        for format in [PixelFormat.yuyv, .nv12, .rgb24] {
            for (camera, output) in cases {
                for fit in FitMode.allCases {
                    for sparse in [false, true] {
                        Self.compare(format: format, camera: camera, output: output, fit: fit, sparse: sparse)
                    }
                }
            }
        }
    }

    @Test func mappingsWithNoPeriodMatchTheGatherPath() {
        // SplatStretch: 848 under 1080p filled and letterboxed, 640 letterboxed (1440 columns),
        // then small ones with runs of one to four columns, odd widths, a camera cropped to start
        // at an odd column (62x20 fill) and spans of every length from the sparse matte.
        for camera in [FrameSize(width: 848, height: 480), FrameSize(width: 640, height: 480)] {
            for fit in [FitMode.fill, .fit] where camera.width == 848 || fit == .fit {
                for sparse in [false, true] {
                    Self.compare(format: .yuyv, camera: camera, output: FrameSize(width: 1920, height: 1080), fit: fit,
                                 sparse: sparse)
                }
            }
        }
        let cases = [(FrameSize(width: 62, height: 20), FrameSize(width: 77, height: 40)),
                     (FrameSize(width: 30, height: 20), FrameSize(width: 113, height: 40)),
                     (FrameSize(width: 50, height: 30), FrameSize(width: 61, height: 30)),
                     (FrameSize(width: 22, height: 20), FrameSize(width: 101, height: 40)),  // runs of five: the table
                     (FrameSize(width: 62, height: 46), FrameSize(width: 201, height: 113))]
        for format in [PixelFormat.yuyv, .nv12, .rgb24] {
            for (camera, output) in cases {
                for fit in FitMode.allCases {
                    for sparse in [false, true] {
                        Self.compare(format: format, camera: camera, output: output, fit: fit, sparse: sparse)
                    }
                }
            }
        }
    }

    @Test func equalSizesTakeTheDirectPathUnchanged() {
        Self.compare(format: .yuyv, camera: FrameSize(width: 96, height: 40), output: FrameSize(width: 96, height: 40), fit: .fill)
    }
}
