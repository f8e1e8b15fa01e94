import Foundation
@_spi(Testing) import Frames
@testable import Matte
import Scenes
import Testing

/// The rim-only decontamination (RimDecontamination's runs into a RimPatch, laid into the frame
/// and taken out) against the full-frame form it replaced (FullFrameDecontamination below, the
/// code as it was: copy the frame, then each partial pixel searched for pixel by pixel), byte for
/// byte, on mattes of several kinds and the frame formats the camera gives.
@Suite struct RimPatchTests {
    /// The decontamination as it was before the rim-only form (commit 2661291), kept as the
    /// reference: a copy of the frame with each partial pixel corrected by its own four searches;
    /// since then with the share measured on the colours as shown and YUYV pair chroma the mean
    /// of two partial pixels' estimates (the live/render parity fix).
    struct FullFrameDecontamination {
        let size: FrameSize
        let lookout: Int

        func run(colour: ImageView, alpha: ImageView, into output: ImageView) {
            let bytes = colour.format.minimumBytesPerRow(width: size.width)
            for y in 0..<size.height { output.row(y).copyMemory(from: UnsafeRawPointer(colour.row(y)), byteCount: bytes) }
            if let from = colour.chromaPlane, let to = output.chromaPlane {
                for y in 0..<((size.height + 1) / 2) {
                    (to + y * output.bytesPerRow).copyMemory(from: UnsafeRawPointer(from + y * colour.bytesPerRow), byteCount: bytes)
                }
            }
            var estimates: [Int: SIMD3<Int32>] = [:]
            for y in 0..<size.height {
                for x in 0..<size.width {
                    let a = alphaAt(alpha, x, y)
                    if a != 0 && a != 255, let clean = correct(x: x, y: y, colour: colour, alpha: alpha) {
                        estimates[y * size.width + x] = clean
                    }
                }
            }
            for y in 0..<size.height {
                for x in 0..<size.width {
                    if let clean = estimates[y * size.width + x] { write(clean, x: x, y: y, into: output) }
                }
                guard colour.format == .yuyv else { continue }
                // Chroma by pairs: kept beside an opaque pixel, the partial pixel's beside a clear
                // one, the mean of both wishes (estimate, else the chroma as it is) for two partials.
                for even in stride(from: 0, to: size.width, by: 2) {
                    let ae = alphaAt(alpha, even, y), ao = alphaAt(alpha, even + 1, y)
                    if ae == 255 || ao == 255 { continue }
                    let e = estimates[y * size.width + even], o = estimates[y * size.width + even + 1]
                    let raw = RimDecontamination.channels(colour, even, y)
                    var chroma: SIMD3<Int32>?
                    if ae != 0 && ao != 0 {
                        if e != nil || o != nil {
                            let we = e ?? raw, wo = o ?? raw
                            chroma = SIMD3(0, (we.y + wo.y + 1) >> 1, (we.z + wo.z + 1) >> 1)
                        }
                    } else {
                        chroma = ae != 0 ? e : o
                    }
                    if let chroma {
                        let pair = output.row(y).assumingMemoryBound(to: UInt8.self) + 2 * even
                        pair[1] = UInt8(truncatingIfNeeded: chroma.y)
                        pair[3] = UInt8(truncatingIfNeeded: chroma.z)
                    }
                }
            }
        }

        func alphaAt(_ alpha: ImageView, _ x: Int, _ y: Int) -> UInt8 {
            alpha.row(y).load(fromByteOffset: x, as: UInt8.self)
        }

        func confident(_ alpha: ImageView, x: Int, y: Int, dx: Int, dy: Int) -> (x: Int, y: Int, opaque: Bool)? {
            var sx = x
            var sy = y
            for _ in 0..<lookout {
                sx += dx
                sy += dy
                if sx < 0 || sy < 0 || sx >= size.width || sy >= size.height { return nil }
                let a = alphaAt(alpha, sx, sy)
                if a == 255 { return (sx, sy, true) }
                if a == 0 { return (sx, sy, false) }
            }
            return nil
        }

        func correct(x: Int, y: Int, colour: ImageView, alpha: ImageView) -> SIMD3<Int32>? {
            var subject: (x: Int, y: Int)?
            var ground: (x: Int, y: Int)?
            for direction in 0..<4 {
                if subject != nil && ground != nil { break }
                let dx = direction == 0 ? -1 : direction == 1 ? 1 : 0
                let dy = direction == 2 ? -1 : direction == 3 ? 1 : 0
                guard let found = confident(alpha, x: x, y: y, dx: dx, dy: dy) else { continue }
                if found.opaque {
                    if subject == nil { subject = (found.x, found.y) }
                } else if ground == nil {
                    ground = (found.x, found.y)
                }
            }
            guard let subject, let ground else { return nil }
            let f = RimDecontamination.channels(colour, subject.x, subject.y)
            let b = RimDecontamination.channels(colour, ground.x, ground.y)
            let i = RimDecontamination.channels(colour, x, y)
            // Since the live/render parity fix: the share measured on the colours as shown.
            func shown(_ c: SIMD3<Int32>) -> SIMD3<Int32> {
                guard colour.format == .yuyv || colour.format == .nv12 else { return c }
                let rgb = YCbCr.rgb(y: c.x, cb: c.y, cr: c.z)
                return SIMD3(rgb.r, rgb.g, rgb.b)
            }
            let dm = shown(f) &- shown(b)
            let contrast = (dm &* dm).wrappedSum()
            guard contrast >= Int32(ColourEdges.minimumContrast) else { return nil }
            let along = min(contrast, max(0, ((shown(i) &- shown(b)) &* dm).wrappedSum()))
            let share = ((contrast - along) << 12) / contrast
            let d = f &- b
            let shifted = i &+ ((d &* share) &>> 12)
            return SIMD3<Int32>(min(255, max(0, shifted.x)), min(255, max(0, shifted.y)), min(255, max(0, shifted.z)))
        }

        /// Luma or the three channels; YUYV chroma is written by pairs in `run`.
        func write(_ value: SIMD3<Int32>, x: Int, y: Int, into view: ImageView) {
            let row = view.row(y).assumingMemoryBound(to: UInt8.self)
            switch view.format {
            case .rgb24, .xrgb8888, .argb8888:
                let p = row + (view.format == .rgb24 ? 3 : 4) * x
                p[0] = UInt8(truncatingIfNeeded: value.x)
                p[1] = UInt8(truncatingIfNeeded: value.y)
                p[2] = UInt8(truncatingIfNeeded: value.z)
            case .yuyv:
                row[2 * x] = UInt8(truncatingIfNeeded: value.x)
            case .nv12:
                row[x] = UInt8(truncatingIfNeeded: value.x)
            case .z16, .alpha8:
                break
            }
        }
    }

    /// Bytes of `a` and `b` that differ (luma/packed plane and, for NV12, the chroma plane).
    static func differences(_ a: ImageView, _ b: ImageView) -> Int {
        let bytes = a.format.minimumBytesPerRow(width: a.size.width)
        var count = 0
        for y in 0..<a.size.height {
            let p = a.row(y).assumingMemoryBound(to: UInt8.self)
            let q = b.row(y).assumingMemoryBound(to: UInt8.self)
            for k in 0..<bytes where p[k] != q[k] { count += 1 }
        }
        if let pa = a.chromaPlane, let pb = b.chromaPlane {
            for y in 0..<((a.size.height + 1) / 2) {
                let p = (pa + y * a.bytesPerRow).assumingMemoryBound(to: UInt8.self)
                let q = (pb + y * b.bytesPerRow).assumingMemoryBound(to: UInt8.self)
                for k in 0..<bytes where p[k] != q[k] { count += 1 }
            }
        }
        return count
    }

    /// `rgb` in `format` (YUYV and NV12 by a plain BT.601 conversion; XRGB with the bytes as B G R X).
    static func convert(_ rgb: ImageView, into out: ImageView) {
        let size = rgb.size
        switch out.format {
        case .rgb24:
            TestColour.copy(rgb, into: out)
        case .yuyv:
            TestColour.yuyv(from: rgb, into: out)
        case .xrgb8888:
            for y in 0..<size.height {
                let s = rgb.row(y).assumingMemoryBound(to: UInt8.self)
                let d = out.row(y).assumingMemoryBound(to: UInt8.self)
                for x in 0..<size.width {
                    d[4 * x] = s[3 * x + 2]; d[4 * x + 1] = s[3 * x + 1]; d[4 * x + 2] = s[3 * x]; d[4 * x + 3] = 255
                }
            }
        case .nv12:
            let chroma = out.chromaPlane!
            for y in 0..<size.height {
                let s = rgb.row(y).assumingMemoryBound(to: UInt8.self)
                let d = out.row(y).assumingMemoryBound(to: UInt8.self)
                let c = (chroma + (y >> 1) * out.bytesPerRow).assumingMemoryBound(to: UInt8.self)
                for x in 0..<size.width {
                    let r = Int(s[3 * x]), g = Int(s[3 * x + 1]), b = Int(s[3 * x + 2])
                    d[x] = UInt8((66 * r + 129 * g + 25 * b + 128) / 256 + 16)
                    if x & 1 == 0 && y & 1 == 0 {
                        c[x] = UInt8(max(0, min(255, (-38 * r - 74 * g + 112 * b + 128) / 256 + 128)))
                        c[x + 1] = UInt8(max(0, min(255, (112 * r - 94 * g - 18 * b + 128) / 256 + 128)))
                    }
                }
            }
        default:
            break
        }
    }

    /// The engine's patch laid into a copy (`decontaminate(into:)`, the frame path's form) against
    /// the full-frame reference, byte for byte; the camera frame itself stays as captured.
    static func compare(engine: MatteEngine, colour: ImageView, alpha: ImageView, lookout: Int,
                        label: String) -> Int {
        let size = colour.size
        let expected = PixelBuffer(format: colour.format, size: size)
        let got = PixelBuffer(format: colour.format, size: size)
        let raw = PixelBuffer(format: colour.format, size: size)
        FullFrameDecontamination(size: size, lookout: lookout).run(colour: colour, alpha: alpha, into: expected.view)
        TestColour.copyAny(colour, into: raw.view)
        engine.decontaminate(colour: colour, alpha: alpha, into: got.view)
        #expect(differences(colour, raw.view) == 0, "\(label): decontaminate wrote into the camera frame")
        let wholeFrame = differences(expected.view, got.view)
        #expect(wholeFrame == 0, "\(label): \(wholeFrame) bytes differ from the full-frame result")
        return differences(raw.view, expected.view)
    }

    static let formats: [PixelFormat] = [.rgb24, .yuyv, .xrgb8888, .nv12]

    @Test(arguments: formats, [0, 3, 8])
    func sameBytesAsTheFullFrameFormOnGroupScenes(format: PixelFormat, feather: Int) throws {
        let size = FrameSize(width: 320, height: 240)
        var changed = 0
        for registered in [true, false] {
            let scene = registered ? GroupScene(colourSize: size) : GroupScene.unregistered(colourSize: size)
            let projection = registered ? nil : DepthProjection(depth: scene.depthCamera, colour: scene.colourCamera,
                                                                translationMM: scene.colourOffsetMM)
            var parameters = MatteParameters()
            parameters.featherPixels = feather
            let engine = try MatteEngine(parameters: parameters, depthSize: scene.depthSize, alphaSize: size, projection: projection)
            let rgb = PixelBuffer(format: .rgb24, size: size)
            let colour = PixelBuffer(format: format, size: size)
            let depth = PixelBuffer(format: .z16, size: scene.depthSize)
            let alpha = PixelBuffer(format: .alpha8, size: size)
            for frame in [0, 3] {
                scene.render(frame: frame, color: rgb.view, depth: depth.view, truth: nil)
                Self.convert(rgb.view, into: colour.view)
                engine.process(depth: depth.view, unitMM: 1, colour: colour.view, into: alpha.view)
                let lookout = engine.rimLookout
                changed += Self.compare(engine: engine, colour: colour.view, alpha: alpha.view, lookout: lookout,
                                        label: "\(format) feather \(feather) \(registered ? "registered" : "unregistered") frame \(frame)")
            }
        }
        #expect(changed > 0, "the scenes' rims were not recoloured at all")
    }

    /// Mattes no engine makes but the patch must take: partial almost everywhere (near the
    /// patch's worst case, every pixel), noise, one-pixel stripes, and partial runs touching the frame's edges;
    /// on an odd width for the packed RGB formats.
    @Test(arguments: formats)
    func sameBytesAsTheFullFrameFormOnHostileMattes(format: PixelFormat) throws {
        let size = FrameSize(width: format == .yuyv || format == .nv12 ? 98 : 97, height: 64)
        let rgb = PixelBuffer(format: .rgb24, size: size)
        let colour = PixelBuffer(format: format, size: size)
        let alpha = PixelBuffer(format: .alpha8, size: size)
        var random = SystemRandomNumberGenerator()
        for y in 0..<size.height {
            let p = rgb.view.row(y).assumingMemoryBound(to: UInt8.self)
            for k in 0..<(3 * size.width) { p[k] = UInt8.random(in: 0...255, using: &random) }
        }
        Self.convert(rgb.view, into: colour.view)
        let patterns: [(String, (Int, Int) -> UInt8)] = [
            ("almost all partial", { x, y in x % 4 == 0 ? (x % 8 == 0 ? 0 : 255) : UInt8(1 + (x * 7 + y * 3) % 254) }),
            ("noise", { _, _ in [0, 255, 128, 0, 255, 3, 254][Int.random(in: 0..<7)] }),
            ("stripes", { x, _ in x % 3 == 0 ? 0 : x % 3 == 1 ? 255 : 100 }),
            ("rows", { _, y in y % 4 == 0 ? 0 : y % 4 == 2 ? 255 : 60 }),
            ("edges", { x, y in x < 3 || x >= size.width - 3 || y < 2 || y >= size.height - 2 ? 90 : (x / 9 + y / 7) % 2 == 0 ? 255 : 0 }),
        ]
        let engine = try MatteEngine(parameters: MatteParameters(), depthSize: size, alphaSize: size)
        let lookout = engine.rimLookout
        for (name, pattern) in patterns {
            for y in 0..<size.height {
                let a = alpha.view.row(y).assumingMemoryBound(to: UInt8.self)
                for x in 0..<size.width { a[x] = pattern(x, y) }
            }
            _ = Self.compare(engine: engine, colour: colour.view, alpha: alpha.view, lookout: lookout, label: "\(format) \(name)")
            if name == "almost all partial" {
                #expect(engine.rimPixelCount > size.pixelCount / 2, "\(engine.rimPixelCount) of \(size.pixelCount) recoloured")
            }
        }
    }

    @Test(.enabled(if: KinectFrameTests.available, "needs ../shared/data/rgbd/pcl_five_people (real Kinect frame); not present"))
    func sameBytesAsTheFullFrameFormOnTheKinectFrame() throws {
        let recording = try Recording.open(KinectFrameTests.folder)
        let size = FrameSize(width: 640, height: 480)
        let rgb = PixelBuffer(format: .rgb24, size: size)
        let depth = PixelBuffer(format: .z16, size: size)
        let alpha = PixelBuffer(format: .alpha8, size: size)
        try recording.load(frame: 0, color: rgb.view, depth: depth.view)
        for format in [PixelFormat.rgb24, .yuyv] {
            let colour = PixelBuffer(format: format, size: size)
            Self.convert(rgb.view, into: colour.view)
            let engine = try MatteEngine(parameters: MatteParameters(), depthSize: size, alphaSize: size)
            engine.process(depth: depth.view, unitMM: 1, colour: colour.view, into: alpha.view)
            let lookout = engine.rimLookout
            let changed = Self.compare(engine: engine, colour: colour.view, alpha: alpha.view, lookout: lookout,
                                       label: "pcl_five_people \(format)")
            #expect(changed > 0)
        }
    }
}

extension TestColour {
    /// Any format's planes, byte for byte.
    static func copyAny(_ from: ImageView, into to: ImageView) {
        let bytes = from.format.minimumBytesPerRow(width: from.size.width)
        for y in 0..<from.size.height { to.row(y).copyMemory(from: UnsafeRawPointer(from.row(y)), byteCount: bytes) }
        if let a = from.chromaPlane, let b = to.chromaPlane {
            for y in 0..<((from.size.height + 1) / 2) {
                (b + y * to.bytesPerRow).copyMemory(from: UnsafeRawPointer(a + y * from.bytesPerRow), byteCount: bytes)
            }
        }
    }
}
