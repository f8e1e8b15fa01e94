@testable import Compose
@_spi(Testing) import Frames
import Testing

/// Compose given the rim patch (laid into the band's copy of each camera row as it is read) against
/// compose of a whole copy of the frame with the patch written in, which is what the frame path did
/// before: every path (direct, gather, periodic, splat; frame and both layers), every camera
/// format, rows with and without writes, a pair's chroma written by one of its pixels. Bit for bit,
/// and the camera frame is left as it was.
@Suite struct PatchedRowsTests {
    typealias F = ComposeFixtures

    /// Entries as RimPatch lays them out, kept alive for the test.
    final class Entries {
        let places: UnsafeMutablePointer<UInt32>
        let values: UnsafeMutablePointer<UInt32>
        let rowStarts: UnsafeMutablePointer<Int32>
        let patch: PixelPatch

        /// Rows whose index is 1 mod 3 get no writes; elsewhere about one pixel in five does; in
        /// YUYV only even pixels write their pair's chroma, so no two entries write one byte.
        init(size: FrameSize) {
            places = .allocate(capacity: size.pixelCount)
            values = .allocate(capacity: size.pixelCount)
            rowStarts = .allocate(capacity: size.height + 1)
            var count = 0
            for y in 0..<size.height {
                rowStarts[y] = Int32(count)
                guard y % 3 != 1 else { continue }
                for x in 0..<size.width where F.noise(x, y, 40) > 200 {
                    places[count] = UInt32(y) << 16 | UInt32(x)
                    let bytes = UInt32(F.noise(x, y, 41)) | UInt32(F.noise(x, y, 42)) << 8 | UInt32(F.noise(x, y, 43)) << 16
                    values[count] = bytes | (x % 2 == 0 && F.noise(x, y, 44) > 100 ? PixelPatch.chromaFlag : 0)
                    count += 1
                }
            }
            rowStarts[size.height] = Int32(count)
            patch = PixelPatch(size: size, places: places, values: values, rowStarts: rowStarts)
        }

        deinit {
            places.deallocate()
            values.deallocate()
            rowStarts.deallocate()
        }
    }

    static func copy(_ image: borrowing PixelBuffer) -> PixelBuffer {
        let copy = PixelBuffer(format: image.format, size: image.size)
        copy.base.copyMemory(from: UnsafeRawPointer(image.base), byteCount: image.byteCount)
        return copy
    }

    static func sameBytes(_ a: borrowing PixelBuffer, _ b: borrowing PixelBuffer) -> Bool {
        a.byteCount == b.byteCount
            && UnsafeRawBufferPointer(start: a.base, count: a.byteCount).elementsEqual(UnsafeRawBufferPointer(start: b.base, count: b.byteCount))
    }

    static func check(format: PixelFormat, camera cameraSize: FrameSize, output outputSize: FrameSize, fit: FitMode) {
        let image = ScaledComposeTests.camera(format, cameraSize)
        let pristine = copy(image)
        let matte = ScaledComposeTests.alpha(cameraSize)
        let entries = Entries(size: cameraSize)
        let cleaned = copy(image)
        entries.patch.write(into: cleaned.view)
        let patchWrites = !sameBytes(cleaned, pristine)
        #expect(patchWrites, "the patch writes something")
        let background = F.xrgb(outputSize) { x, y in UInt32(x * 13 % 256) << 16 | UInt32(y * 7 % 256) << 8 | 0x40 }
        let compositor = Compositor(cameraFormat: format, cameraSize: cameraSize, outputSize: outputSize, fit: fit)
        let scratch = compositor.makeScratch()
        let label = "\(format.name) \(cameraSize.description) -> \(outputSize.description) \(fit.name)"

        let expected = PixelBuffer(format: .xrgb8888, size: outputSize)
        let got = PixelBuffer(format: .xrgb8888, size: outputSize)
        for band in ScaledComposeTests.bands(outputSize.height) {
            compositor.compose(camera: cleaned.view, alpha: matte.view, background: background.view, into: expected.view,
                               rows: band, scratch: scratch)
            compositor.compose(camera: image.view, alpha: matte.view, background: background.view, into: got.view,
                               rows: band, scratch: scratch, patch: entries.patch)
        }
        #expect(ScaledComposeTests.firstDifference(expected, got, outputSize) == nil, "frame, \(label)")

        for premultiplied in [true, false] {
            let expectedLayer = PixelBuffer(format: .argb8888, size: outputSize)
            let gotLayer = PixelBuffer(format: .argb8888, size: outputSize)
            for band in ScaledComposeTests.bands(outputSize.height) {
                compositor.writeLayer(camera: cleaned.view, alpha: matte.view, into: expectedLayer.view, rows: band,
                                      premultiplied: premultiplied, scratch: scratch)
                compositor.writeLayer(camera: image.view, alpha: matte.view, into: gotLayer.view, rows: band,
                                      premultiplied: premultiplied, scratch: scratch, patch: entries.patch)
            }
            #expect(ScaledComposeTests.firstDifference(expectedLayer, gotLayer, outputSize) == nil,
                    "layer premultiplied \(premultiplied), \(label)")
        }
        let cameraUnchanged = sameBytes(image, pristine)
        #expect(cameraUnchanged, "the camera frame is only read, \(label)")
    }

    @Test(arguments: [PixelFormat.yuyv, .nv12, .rgb24])
    func aPatchedRowComposesAsTheWholePatchedFrameDoes(format: PixelFormat) {
        let cases = [(FrameSize(width: 62, height: 46), FrameSize(width: 62, height: 46), FitMode.fill),  // direct
                     (FrameSize(width: 62, height: 46), FrameSize(width: 201, height: 113), .fill),       // gather, table
                     (FrameSize(width: 62, height: 46), FrameSize(width: 93, height: 69), .fill),         // period 2:3
                     (FrameSize(width: 848, height: 480), FrameSize(width: 1920, height: 1080), .fill),   // splat
                     (FrameSize(width: 640, height: 480), FrameSize(width: 1920, height: 1080), .fit),    // letterbox
                     (FrameSize(width: 150, height: 90), FrameSize(width: 67, height: 41), .stretch)]     // downscale
        for (camera, output, fit) in cases {
            Self.check(format: format, camera: camera, output: output, fit: fit)
        }
    }

    /// The camera-sized layer a scaling display plane takes: the identity mapping's compositor,
    /// given the frame compositor's scratch (what FrameProcessor lends it).
    @Test func theCameraLayerTakesThePatchThroughTheFrameCompositorsScratch() {
        let size = FrameSize(width: 640, height: 480)
        let image = ScaledComposeTests.camera(.yuyv, size)
        let matte = ScaledComposeTests.alpha(size)
        let entries = Entries(size: size)
        let cleaned = Self.copy(image)
        entries.patch.write(into: cleaned.view)
        let frameScratch = Compositor(cameraFormat: .yuyv, cameraSize: size, outputSize: FrameSize(width: 1920, height: 1080),
                                      fit: .fill).makeScratch()
        let layer = Compositor(cameraFormat: .yuyv, cameraSize: size, outputSize: size, fit: .stretch)
        let expected = PixelBuffer(format: .argb8888, size: size)
        let got = PixelBuffer(format: .argb8888, size: size)
        layer.writeLayer(camera: cleaned.view, alpha: matte.view, into: expected.view, rows: 0..<size.height, premultiplied: true)
        layer.writeLayer(camera: image.view, alpha: matte.view, into: got.view, rows: 0..<size.height, premultiplied: true,
                         scratch: frameScratch, patch: entries.patch)
        #expect(ScaledComposeTests.firstDifference(expected, got, size) == nil)
    }
}
