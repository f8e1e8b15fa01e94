@testable import Compose
@_spi(Testing) import Frames
import Testing

@Suite struct CompositorTests {
    typealias F = ComposeFixtures
    static func background(_ x: Int, _ y: Int) -> UInt32 {
        0xFF00_0000 | UInt32(x * 7 % 256) << 16 | UInt32(y * 11 % 256) << 8 | 0x30
    }

    /// Expected output word for a foreground colour over a background word, from the definition.
    static func expected(_ fg: (r: Int32, g: Int32, b: Int32), over back: UInt32, alpha: Int32) -> UInt32 {
        func mix(_ f: Int32, _ b: UInt32) -> Int32 {
            let t = Int(f) * Int(alpha) + Int(b & 0xFF) * (255 - Int(alpha))
            return Int32((2 * t + 255) / 510)
        }
        return F.word(mix(fg.r, back >> 16), mix(fg.g, back >> 8), mix(fg.b, back))
    }

    @Test func alphaZeroShowsTheBackgroundAndFullAlphaTheCamera() {
        let size = FrameSize(width: 32, height: 2)
        let camera = F.yuyv(size, luma: { _, _ in 235 }, chroma: { _, _ in (128, 128) })  // white
        let output = PixelBuffer(format: .xrgb8888, size: size)
        let background = F.xrgb(size) { Self.background($0, $1) }
        let compositor = Compositor(cameraFormat: .yuyv, cameraSize: size, outputSize: size, fit: .fill)
        // Row 0 alpha 0, row 1 alpha 255.
        let alpha = F.alpha(size) { _, y in y == 0 ? 0 : 255 }
        compositor.compose(camera: camera.view, alpha: alpha.view, background: background.view, into: output.view, rows: 0..<2)
        for x in 0..<32 {
            #expect(F.pixel(output, x, 0) == Self.background(x, 0))
            #expect(F.pixel(output, x, 1) == 0xFFFF_FFFF)
        }
    }

    @Test func halfAlphaBlendsWithExactRounding() {
        let size = FrameSize(width: 18, height: 1)  // 16 through the vector path, 2 through the tail
        let camera = F.yuyv(size, luma: { _, _ in 235 }, chroma: { _, _ in (128, 128) })
        let background = F.xrgb(size) { _, _ in 0xFF10_2030 }
        let alpha = F.alpha(size) { _, _ in 128 }
        let output = PixelBuffer(format: .xrgb8888, size: size)
        Compositor(cameraFormat: .yuyv, cameraSize: size, outputSize: size, fit: .stretch)
            .compose(camera: camera.view, alpha: alpha.view, background: background.view, into: output.view, rows: 0..<1)
        // round((255 * 128 + 0x10 * 127) / 255) = round(136.0) etc., worked by hand:
        // R: (32640 + 2032) / 255 = 135.97 -> 136; G: (32640 + 4064) / 255 = 143.94 -> 144;
        // B: (32640 + 6096) / 255 = 151.9 -> 152.
        for x in 0..<18 { #expect(F.pixel(output, x, 0) == F.word(136, 144, 152)) }
    }

    @Test func everyCameraFormatGivesTheSameResultForTheSamePicture() {
        let size = FrameSize(width: 40, height: 4)
        let luma: (Int, Int) -> UInt8 = { x, y in F.noise(x, y, 1) }
        let chroma: (Int, Int) -> (UInt8, UInt8) = { pair, y in (F.noise(pair, y / 2 * 2, 2), F.noise(pair, y / 2 * 2, 3)) }
        let yuyv = F.yuyv(size, luma: luma, chroma: chroma)
        let nv12 = F.nv12(size, luma: luma, chroma: chroma)
        let rgb = F.rgb(size) { x, y in
            let (cb, cr) = chroma(x / 2, y)
            let c = YCbCr.rgb(y: Int32(luma(x, y)), cb: Int32(cb), cr: Int32(cr))
            return (UInt8(c.r), UInt8(c.g), UInt8(c.b))
        }
        let alpha = F.alpha(size) { x, y in F.noise(x, y, 4) }
        let background = F.xrgb(size) { Self.background($0, $1) }
        var outputs: [UInt32] = []
        for (format, camera) in [(PixelFormat.yuyv, yuyv.view), (.nv12, nv12.view), (.rgb24, rgb.view)] {
            let output = PixelBuffer(format: .xrgb8888, size: size)
            Compositor(cameraFormat: format, cameraSize: size, outputSize: size, fit: .fill)
                .compose(camera: camera, alpha: alpha.view, background: background.view, into: output.view, rows: 0..<4)
            for y in 0..<4 {
                for x in 0..<40 {
                    let (cb, cr) = chroma(x / 2, y)
                    let fg = YCbCr.rgb(y: Int32(luma(x, y)), cb: Int32(cb), cr: Int32(cr))
                    let a = Int32(alpha.row(y).load(fromByteOffset: x, as: UInt8.self))
                    #expect(F.pixel(output, x, y) == Self.expected(fg, over: Self.background(x, y), alpha: a),
                            "\(format.name) at \(x),\(y)")
                    outputs.append(F.pixel(output, x, y))
                }
            }
        }
        #expect(outputs[0..<160] == outputs[160..<320] && outputs[160..<320] == outputs[320..<480])
    }

    @Test func scaledVectorPathMatchesTheDefinition() {
        // 64x36 camera onto 100x50 output: gathered vector path plus scalar tails.
        let camera = FrameSize(width: 64, height: 36)
        let outputSize = FrameSize(width: 100, height: 50)
        let luma: (Int, Int) -> UInt8 = { x, y in F.noise(x, y, 5) }
        let chroma: (Int, Int) -> (UInt8, UInt8) = { pair, y in (F.noise(pair, y / 2 * 2, 6), F.noise(pair, y / 2 * 2, 7)) }
        let alpha = F.alpha(camera) { x, y in F.noise(x, y, 8) }
        let background = F.xrgb(outputSize) { Self.background($0, $1) }
        for format in [PixelFormat.yuyv, .nv12] {
            let image = format == .yuyv ? F.yuyv(camera, luma: luma, chroma: chroma) : F.nv12(camera, luma: luma, chroma: chroma)
            for fit in FitMode.allCases {
                let compositor = Compositor(cameraFormat: format, cameraSize: camera, outputSize: outputSize, fit: fit)
                let output = PixelBuffer(format: .xrgb8888, size: outputSize)
                compositor.compose(camera: image.view, alpha: alpha.view, background: background.view, into: output.view,
                                   rows: 0..<50)
                for y in 0..<50 {
                    for x in 0..<100 {
                        let sx = Int(compositor.mapping.sourceColumn[x]), sy = Int(compositor.mapping.sourceRow[y])
                        let want: UInt32
                        if sx < 0 || sy < 0 {
                            want = Self.background(x, y)
                        } else {
                            let (cb, cr) = chroma(sx / 2, sy)
                            let fg = YCbCr.rgb(y: Int32(luma(sx, sy)), cb: Int32(cb), cr: Int32(cr))
                            want = Self.expected(fg, over: Self.background(x, y), alpha: Int32(F.noise(sx, sy, 8)))
                        }
                        #expect(F.pixel(output, x, y) == want, "\(format.name) \(fit.name) at \(x),\(y)")
                    }
                }
            }
        }
    }

    @Test func bandsOfRowsComposeTheSameAsOneCall() {
        let size = FrameSize(width: 48, height: 9)
        let camera = F.yuyv(size, luma: { x, y in F.noise(x, y, 9) }, chroma: { p, y in (F.noise(p, y, 10), F.noise(p, y, 11)) })
        let alpha = F.alpha(size) { x, y in F.noise(x, y, 12) }
        let background = F.xrgb(size) { Self.background($0, $1) }
        let whole = PixelBuffer(format: .xrgb8888, size: size)
        let banded = PixelBuffer(format: .xrgb8888, size: size)
        let compositor = Compositor(cameraFormat: .yuyv, cameraSize: size, outputSize: size, fit: .fill)
        compositor.compose(camera: camera.view, alpha: alpha.view, background: background.view, into: whole.view, rows: 0..<9)
        for band in [0..<4, 4..<5, 5..<9] {
            compositor.compose(camera: camera.view, alpha: alpha.view, background: background.view, into: banded.view, rows: band)
        }
        for y in 0..<9 { for x in 0..<48 { #expect(F.pixel(whole, x, y) == F.pixel(banded, x, y)) } }
    }

    @Test func premultipliedLayerScalesColourByAlpha() {
        let size = FrameSize(width: 20, height: 3)
        let camera = F.rgb(size) { _, _ in (200, 100, 50) }
        let alpha = F.alpha(size) { _, y in [0, 255, 128][y] }
        let output = PixelBuffer(format: .argb8888, size: size)
        Compositor(cameraFormat: .rgb24, cameraSize: size, outputSize: size, fit: .fill)
            .writePremultipliedLayer(camera: camera.view, alpha: alpha.view, into: output.view, rows: 0..<3)
        for x in 0..<20 {
            #expect(F.pixel(output, x, 0) == 0)
            #expect(F.pixel(output, x, 1) == F.word(200, 100, 50, top: 255))
            // round(200 * 128 / 255) = 100.4 -> 100, round(100 * 128 / 255) = 50.2 -> 50, 25.1 -> 25.
            #expect(F.pixel(output, x, 2) == F.word(100, 50, 25, top: 128))
        }
        // The vector path (YUYV, 16 wide) agrees with the scalar definition too.
        let yuyv = F.yuyv(size, luma: { x, _ in UInt8(40 + x * 9) }, chroma: { p, _ in (UInt8(100 + p), UInt8(150 - p)) })
        let layer = PixelBuffer(format: .argb8888, size: size)
        Compositor(cameraFormat: .yuyv, cameraSize: size, outputSize: size, fit: .fill)
            .writePremultipliedLayer(camera: yuyv.view, alpha: alpha.view, into: layer.view, rows: 0..<3)
        for y in 0..<3 {
            for x in 0..<20 {
                let fg = YCbCr.rgb(y: Int32(40 + x * 9), cb: Int32(100 + x / 2), cr: Int32(150 - x / 2))
                let a = Int32([0, 255, 128][y])
                let want = F.word(AlphaBlend.divide255(fg.r * a), AlphaBlend.divide255(fg.g * a),
                                  AlphaBlend.divide255(fg.b * a), top: UInt32(a))
                #expect(F.pixel(layer, x, y) == want)
            }
        }
    }

    @Test func straightLayerKeepsColourAndCarriesAlpha() {
        let size = FrameSize(width: 20, height: 3)
        let camera = F.rgb(size) { _, _ in (200, 100, 50) }
        let alpha = F.alpha(size) { _, y in [0, 255, 128][y] }
        let output = PixelBuffer(format: .argb8888, size: size)
        Compositor(cameraFormat: .rgb24, cameraSize: size, outputSize: size, fit: .fill)
            .writeLayer(camera: camera.view, alpha: alpha.view, into: output.view, rows: 0..<3, premultiplied: false)
        for x in 0..<20 {
            #expect(F.pixel(output, x, 0) == F.word(200, 100, 50, top: 0))
            #expect(F.pixel(output, x, 2) == F.word(200, 100, 50, top: 128))
        }
        // The vector path (YUYV, 16 wide) writes the captured colour unscaled too.
        let yuyv = F.yuyv(size, luma: { x, _ in UInt8(40 + x * 9) }, chroma: { p, _ in (UInt8(100 + p), UInt8(150 - p)) })
        let layer = PixelBuffer(format: .argb8888, size: size)
        Compositor(cameraFormat: .yuyv, cameraSize: size, outputSize: size, fit: .fill)
            .writeLayer(camera: yuyv.view, alpha: alpha.view, into: layer.view, rows: 0..<3, premultiplied: false)
        for y in 0..<3 {
            for x in 0..<20 {
                let fg = YCbCr.rgb(y: Int32(40 + x * 9), cb: Int32(100 + x / 2), cr: Int32(150 - x / 2))
                #expect(F.pixel(layer, x, y) == F.word(fg.r, fg.g, fg.b, top: UInt32([0, 255, 128][y])))
            }
        }
    }
}
