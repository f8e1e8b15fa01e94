import CAllocCounter
import Testing
@testable import Compose
@_spi(Testing) import Frames
import Looks

/// A people look inside compose: an RGB24 camera frame composed with the look equals the same
/// frame with the look applied to its pixels beforehand, composed without one, bit for bit, on
/// the direct (equal sizes) and the scaled paths, for the frame and both layers. The matte has
/// transparent, partial and opaque groups, so every branch of the blend sees looked colours.
@Suite struct CompositorLookTests {
    typealias F = ComposeFixtures
    static let camera = FrameSize(width: 64, height: 24)
    static let look = ColourLookup.fold([.sepia(amount: 1), .contrast(factor: 1.2)])!

    static func colour(_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8) {
        (F.noise(x, y, 1), F.noise(x, y, 2), F.noise(x, y, 3))
    }

    static func looked(_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8) {
        let c = colour(x, y)
        let out = look.apply(red: c.0, green: c.1, blue: c.2)
        return (out.x, out.y, out.z)
    }

    /// Transparent left quarter, partial middle, opaque right quarter, with noise in the partial band.
    static func matte(_ x: Int, _ y: Int) -> UInt8 {
        x < 16 ? 0 : (x >= 48 ? 255 : F.noise(x, y, 4))
    }

    @Test(arguments: [FrameSize(width: 64, height: 24), FrameSize(width: 192, height: 72), FrameSize(width: 100, height: 50)])
    func composedWithTheLookEqualsTheLookedCamera(_ output: FrameSize) {
        let plainCamera = F.rgb(Self.camera, Self.colour)
        let lookedCamera = F.rgb(Self.camera, Self.looked)
        let alpha = F.alpha(Self.camera, Self.matte)
        let background = F.xrgb(output) { x, y in UInt32(F.noise(x, y, 5)) << 8 | UInt32(F.noise(x, y, 6)) }
        let compositor = Compositor(cameraFormat: .rgb24, cameraSize: Self.camera, outputSize: output, fit: .fill)
        let scratch = compositor.makeScratch()
        let got = PixelBuffer(format: .xrgb8888, size: output)
        let want = PixelBuffer(format: .xrgb8888, size: output)
        compositor.compose(camera: plainCamera.view, alpha: alpha.view, background: background.view, into: got.view,
                           rows: 0..<output.height, scratch: scratch, look: Self.look)
        compositor.compose(camera: lookedCamera.view, alpha: alpha.view, background: background.view, into: want.view,
                           rows: 0..<output.height, scratch: scratch)
        for y in 0..<output.height {
            for x in 0..<output.width { #expect(F.pixel(got, x, y) == F.pixel(want, x, y), "(\(x), \(y)) at \(output)") }
        }
        // And the look did something.
        let plain = PixelBuffer(format: .xrgb8888, size: output)
        compositor.compose(camera: plainCamera.view, alpha: alpha.view, background: background.view, into: plain.view,
                           rows: 0..<output.height, scratch: scratch)
        #expect(F.pixel(plain, output.width - 1, 0) != F.pixel(got, output.width - 1, 0))
    }

    @Test(arguments: [(FrameSize(width: 64, height: 24), true), (FrameSize(width: 64, height: 24), false),
                      (FrameSize(width: 192, height: 72), true), (FrameSize(width: 192, height: 72), false)])
    func layerWithTheLookEqualsTheLookedCamerasLayer(_ output: FrameSize, _ premultiplied: Bool) {
        let plainCamera = F.rgb(Self.camera, Self.colour)
        let lookedCamera = F.rgb(Self.camera, Self.looked)
        let alpha = F.alpha(Self.camera, Self.matte)
        let compositor = Compositor(cameraFormat: .rgb24, cameraSize: Self.camera, outputSize: output, fit: .fill)
        let scratch = compositor.makeScratch()
        let got = PixelBuffer(format: .argb8888, size: output)
        let want = PixelBuffer(format: .argb8888, size: output)
        compositor.writeLayer(camera: plainCamera.view, alpha: alpha.view, into: got.view, rows: 0..<output.height,
                              premultiplied: premultiplied, scratch: scratch, look: Self.look)
        compositor.writeLayer(camera: lookedCamera.view, alpha: alpha.view, into: want.view, rows: 0..<output.height,
                              premultiplied: premultiplied, scratch: scratch)
        for y in 0..<output.height {
            for x in 0..<output.width {
                let a = F.pixel(got, x, y), b = F.pixel(want, x, y)
                // Under alpha 0 a straight layer's colour is never shown, and the look skips it.
                if !premultiplied && a >> 24 == 0 { #expect(b >> 24 == 0); continue }
                #expect(a == b, "(\(x), \(y)) at \(output), premultiplied \(premultiplied)")
            }
        }
    }

    /// Steady state with a look, and a look switch (another folded lookup handed in, as a new
    /// generation does), allocate nothing on the frame path.
    @Test func composingWithALookAndSwitchingLooksAllocatesNothing() {
        guard alloc_counter_available() == 1 else {
            print("skipped: allocations are not counted in a ThreadSanitizer build")
            return
        }
        let output = FrameSize(width: 192, height: 72)
        let camera = F.rgb(Self.camera, Self.colour)
        let alpha = F.alpha(Self.camera, Self.matte)
        let background = F.xrgb(output) { x, y in UInt32(x ^ y) }
        let compositor = Compositor(cameraFormat: .rgb24, cameraSize: Self.camera, outputSize: output, fit: .fill)
        let scratch = compositor.makeScratch()
        let frame = PixelBuffer(format: .xrgb8888, size: output)
        let layer = PixelBuffer(format: .argb8888, size: output)
        let looks = [Self.look, ColourLookup.fold([.mono])!, ColourLookup.fold([.invert])!]
        alloc_counter_track_this_thread(1)
        defer { alloc_counter_track_this_thread(0) }
        alloc_counter_start()
        for round in 0..<6 {
            let look = looks[round % looks.count]
            compositor.compose(camera: camera.view, alpha: alpha.view, background: background.view, into: frame.view,
                               rows: 0..<output.height, scratch: scratch, look: look)
            compositor.writeLayer(camera: camera.view, alpha: alpha.view, into: layer.view, rows: 0..<output.height,
                                  premultiplied: true, scratch: scratch, look: look)
        }
        #expect(alloc_counter_stop() == 0)
    }
}
