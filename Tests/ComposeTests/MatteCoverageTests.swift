@testable import Compose
@_spi(Testing) import Frames
import Testing

/// The kernels copy instead of blending where a group of pixels is all transparent or all opaque
/// (`MatteCoverage`). With a matte like a person's (long runs of 0 and 255, soft edges between,
/// boundaries at every offset from a group's start) every kernel must still give the
/// definition's pixels, bit for bit: for each format, fit, equal and scaled sizes, the direct,
/// row-buffer and gather paths, the frame and both layers. The backdrop's X byte is not 0xFF, so
/// a copied group that forgot to make it opaque shows.
@Suite struct MatteCoverageTests {
    typealias F = ComposeFixtures

    static func matte(_ x: Int, _ y: Int) -> UInt8 {
        let phase = (x + 3 * y) % 97
        if phase < 40 { return 0 }
        if phase < 44 { return UInt8(60 * (phase - 39) - 1) }
        if phase < 80 { return 255 }
        return F.noise(x, y, 31)
    }

    static func backdrop(_ x: Int, _ y: Int) -> UInt32 {
        UInt32(x * 5 % 256) << 24 | UInt32(x * 13 % 256) << 16 | UInt32(y * 7 % 256) << 8 | UInt32((x ^ y) & 0xFF)
    }

    static func luma(_ x: Int, _ y: Int) -> UInt8 { F.noise(x, y, 32) }
    static func chroma(_ pair: Int, _ y: Int) -> (UInt8, UInt8) { (F.noise(pair, y / 2 * 2, 33), F.noise(pair, y / 2 * 2, 34)) }
    static func rgb(_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8) { (F.noise(x, y, 35), F.noise(x, y, 36), F.noise(x, y, 37)) }

    static func camera(_ format: PixelFormat, _ size: FrameSize) -> PixelBuffer {
        switch format {
        case .yuyv: return F.yuyv(size, luma: luma, chroma: chroma)
        case .nv12: return F.nv12(size, luma: luma, chroma: chroma)
        default: return F.rgb(size, rgb)
        }
    }

    /// The camera pixel at (x, y) as RGB, by the scalar reference conversion.
    static func colour(_ format: PixelFormat, _ x: Int, _ y: Int) -> (r: Int32, g: Int32, b: Int32) {
        if format == .rgb24 {
            let (r, g, b) = rgb(x, y)
            return (Int32(r), Int32(g), Int32(b))
        }
        let (cb, cr) = chroma(x / 2, y)
        return YCbCr.rgb(y: Int32(luma(x, y)), cb: Int32(cb), cr: Int32(cr))
    }

    enum Kind: CaseIterable { case frame, premultiplied, straight }

    /// The definition: round((fg * a + bg * (255 - a)) / 255) opaque; round(fg * a / 255) with A = a;
    /// fg with A = a. Outside the camera: the backdrop as it is, or transparent.
    static func expected(_ kind: Kind, _ format: PixelFormat, _ mapping: CameraMapping, _ x: Int, _ y: Int) -> UInt32 {
        let sx = Int(mapping.sourceColumn[x]), sy = Int(mapping.sourceRow[y])
        guard sx >= 0, sy >= 0 else { return kind == .frame ? backdrop(x, y) : 0 }
        let fg = colour(format, sx, sy)
        let a = Int32(matte(sx, sy))
        func round255(_ t: Int32) -> Int32 { (2 * t + 255) / 510 }
        switch kind {
        case .frame:
            let back = backdrop(x, y)
            func mix(_ f: Int32, _ shift: UInt32) -> Int32 { round255(f * a + Int32((back >> shift) & 0xFF) * (255 - a)) }
            return F.word(mix(fg.r, 16), mix(fg.g, 8), mix(fg.b, 0))
        case .premultiplied:
            return F.word(round255(fg.r * a), round255(fg.g * a), round255(fg.b * a), top: UInt32(a))
        case .straight:
            return F.word(fg.r, fg.g, fg.b, top: UInt32(a))
        }
    }

    static func check(_ format: PixelFormat, camera cameraSize: FrameSize, output outputSize: FrameSize, fit: FitMode) {
        let image = camera(format, cameraSize)
        let alpha = F.alpha(cameraSize, matte)
        let background = F.xrgb(outputSize, backdrop)
        let compositor = Compositor(cameraFormat: format, cameraSize: cameraSize, outputSize: outputSize, fit: fit)
        let scratch = compositor.makeScratch()
        let bands = ScaledComposeTests.bands(outputSize.height)
        for kind in Kind.allCases {
            for rowBuffers in [false, true] {
                let output = PixelBuffer(format: kind == .frame ? .xrgb8888 : .argb8888, size: outputSize)
                for band in bands {
                    switch (kind, rowBuffers) {
                    case (.frame, false):
                        compositor.compose(camera: image.view, alpha: alpha.view, background: background.view, into: output.view, rows: band)
                    case (.frame, true):
                        compositor.compose(camera: image.view, alpha: alpha.view, background: background.view, into: output.view,
                                           rows: band, scratch: scratch)
                    case (_, false):
                        compositor.writeLayer(camera: image.view, alpha: alpha.view, into: output.view, rows: band,
                                              premultiplied: kind == .premultiplied)
                    case (_, true):
                        compositor.writeLayer(camera: image.view, alpha: alpha.view, into: output.view, rows: band,
                                              premultiplied: kind == .premultiplied, scratch: scratch)
                    }
                }
                var mismatch: String?
                search: for y in 0..<outputSize.height {
                    for x in 0..<outputSize.width {
                        let want = expected(kind, format, compositor.mapping, x, y)
                        let got = F.pixel(output, x, y)
                        if got != want {
                            mismatch = "at \(x),\(y): \(String(got, radix: 16)) instead of \(String(want, radix: 16))"
                            break search
                        }
                    }
                }
                let label = "\(kind) \(rowBuffers ? "row buffers" : "direct/gather") \(format.name) "
                    + "\(cameraSize.description) -> \(outputSize.description) \(fit.name)"
                #expect(mismatch == nil, "\(label)")
            }
        }
    }

    @Test(arguments: [PixelFormat.yuyv, .nv12, .rgb24])
    func matteLikeAlphaGivesTheDefinitionOnEveryPath(format: PixelFormat) {
        let cases = [(FrameSize(width: 160, height: 60), FrameSize(width: 160, height: 60)),  // direct path
                     (FrameSize(width: 162, height: 62), FrameSize(width: 162, height: 62)),  // direct, scalar tails
                     (FrameSize(width: 64, height: 48), FrameSize(width: 192, height: 108)),  // 3x, like 640x480 under 1080p
                     (FrameSize(width: 106, height: 60), FrameSize(width: 240, height: 135)),  // 848x480's ratio
                     (FrameSize(width: 128, height: 72), FrameSize(width: 192, height: 108)),  // 1.5x
                     (FrameSize(width: 150, height: 90), FrameSize(width: 67, height: 41))]  // downscale
        for (camera, output) in cases {
            for fit in FitMode.allCases { Self.check(format, camera: camera, output: output, fit: fit) }
        }
    }

    @Test func coverageOfSixteenBytes() {
        #expect(MatteCoverage(SIMD16<UInt8>(repeating: 0)) == .transparent)
        #expect(MatteCoverage(SIMD16<UInt8>(repeating: 255)) == .opaque)
        for lane in 0..<16 {
            var almostClear = SIMD16<UInt8>(repeating: 0)
            almostClear[lane] = 1
            #expect(MatteCoverage(almostClear) == .partial)
            var almostFull = SIMD16<UInt8>(repeating: 255)
            almostFull[lane] = 254
            #expect(MatteCoverage(almostFull) == .partial)
        }
    }

    @Test func coverageOfEightWordsReadsOnlyTheirAlpha() {
        let colourOnly = SIMD4<UInt32>(repeating: 0x00FF_FFFF)
        #expect(MatteCoverage(words: colourOnly, colourOnly) == .transparent)
        let opaqueBlack = SIMD4<UInt32>(repeating: 0xFF00_0000)
        #expect(MatteCoverage(words: opaqueBlack, opaqueBlack) == .opaque)
        for lane in 0..<8 {
            var low = opaqueBlack, high = opaqueBlack
            if lane < 4 { low[lane] = 0xFE00_0000 } else { high[lane - 4] = 0xFE00_0000 }
            #expect(MatteCoverage(words: low, high) == .partial)
            var clearLow = colourOnly, clearHigh = colourOnly
            if lane < 4 { clearLow[lane] = 0x0100_0000 } else { clearHigh[lane - 4] = 0x0100_0000 }
            #expect(MatteCoverage(words: clearLow, clearHigh) == .partial)
        }
    }

    @Test func composeLanesMatchTheScalarConversionForEveryInput() {
        var mismatches = 0
        for cb in 0..<256 {
            for cr in 0..<256 {
                for base in stride(from: 0, to: 256, by: 16) {
                    var luma = SIMD16<Int16>()
                    for lane in 0..<16 { luma[lane] = Int16(base + lane) }
                    let vector = Compositor.rgbLanes(y: luma, cb: SIMD16(repeating: Int16(cb)), cr: SIMD16(repeating: Int16(cr)))
                    for lane in 0..<16 {
                        let scalar = YCbCr.rgb(y: Int32(base + lane), cb: Int32(cb), cr: Int32(cr))
                        if Int32(vector.r[lane]) != scalar.r || Int32(vector.g[lane]) != scalar.g || Int32(vector.b[lane]) != scalar.b {
                            mismatches += 1
                        }
                    }
                }
            }
        }
        #expect(mismatches == 0)
    }

    @Test func eightLaneDivisionRoundsExactlyForEveryProduct() {
        for base in stride(from: 0, through: 65025 - 7, by: 8) {
            var lanes = SIMD8<UInt16>()
            for lane in 0..<8 { lanes[lane] = UInt16(base + lane) }
            let got = Compositor.divide255Lanes(lanes)
            let shiftForm = AlphaBlend.divide255(lanes)
            #expect(got == shiftForm)
            for lane in 0..<8 { #expect(Int(got[lane]) == (2 * (base + lane) + 255) / 510) }
        }
        let top = Compositor.divide255Lanes(SIMD8<UInt16>(repeating: 65025))
        #expect(top == SIMD8(repeating: 255))
    }
}
