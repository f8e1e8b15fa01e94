@testable import Compose
@_spi(Testing) import Frames
import Testing

@Suite struct ColourConversionTests {
    /// With the matte fully opaque the compositor writes the camera's colour as is, so the
    /// conversion a photo's colour layer uses must give exactly the compositor's pixels.
    @Test(arguments: [PixelFormat.yuyv, .nv12, .rgb24])
    func matchesTheCompositorsColour(format: PixelFormat) {
        let size = FrameSize(width: 48, height: 20)
        let luma = { (x: Int, y: Int) in UInt8((x * 5 + y * 11) % 256) }
        let chroma = { (pair: Int, y: Int) in (UInt8((pair * 29 + y * 3) % 256), UInt8((pair * 7 + y * 17 + 90) % 256)) }
        let camera: PixelBuffer
        switch format {
        case .yuyv: camera = ComposeFixtures.yuyv(size, luma: luma, chroma: chroma)
        case .nv12: camera = ComposeFixtures.nv12(size, luma: luma, chroma: chroma)
        default: camera = ComposeFixtures.rgb(size) { x, y in (UInt8(x * 5), UInt8(y * 12), UInt8((x + y) * 3)) }
        }
        let alpha = PixelBuffer(format: .alpha8, size: size)
        for y in 0..<20 { alpha.row(y).initializeMemory(as: UInt8.self, repeating: 255, count: 48) }
        let background = PixelBuffer(format: .xrgb8888, size: size)
        let composed = PixelBuffer(format: .xrgb8888, size: size)
        Compositor(cameraFormat: format, cameraSize: size, outputSize: size, fit: .stretch)
            .compose(camera: camera.view, alpha: alpha.view, background: background.view, into: composed.view, rows: 0..<20)
        let converted = PixelBuffer(format: .rgb24, size: size)
        ColourConversion.rgb24(from: camera.view, into: converted.view)
        var differing = 0
        for y in 0..<20 {
            let c = composed.row(y).assumingMemoryBound(to: UInt8.self)
            let r = converted.row(y).assumingMemoryBound(to: UInt8.self)
            for x in 0..<48 where c[x * 4 + 2] != r[x * 3] || c[x * 4 + 1] != r[x * 3 + 1] || c[x * 4] != r[x * 3 + 2] {
                differing += 1
            }
        }
        #expect(differing == 0)
    }
}
