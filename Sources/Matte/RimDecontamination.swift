import Frames
import KernelIO

/// Takes the camera's own background out of the colour of the matte's partial pixels.
///
/// The compositor blends the camera colour as captured, so a rim pixel with alpha a carries
/// a x (its colour), and at the edge that colour is partly, or all, the room behind the subject:
/// a halo of corridor around an arm. Here each partial pixel (0 < a < 255) finds the nearest
/// opaque (255) and clear (0) pixels along its row, then its column, within `lookout`; their
/// colours are a local subject colour F and background colour B. The pixel's own colour I is
/// read as a mix of the two, t = (I - B).(F - B) / |F - B|^2 clamped to 0...1, and the background
/// share is swapped for the subject: I + (1 - t)(F - B). A pixel that is already subject colour
/// (t = 1) keeps its colour; one that is pure background becomes F; the part of I off the F-B
/// line (texture, noise) is kept at unit gain, unlike F = (I - (1 - a)B) / a, which divides by a
/// small a and by a matte alpha that need not match the colour's own mixing. Where F and B are
/// alike (below ColourEdges.minimumContrast) there is nothing to remove and the pixel is left.
///
/// Reads the camera frame and the finished alpha and writes nothing into either: the corrected
/// pixels go into `patch` (RimPatch), which MatteEngine.decontaminate(into:) lays into a copy, so
/// the captured frame stays as it was (photo layers and recordings keep the raw camera colour, and
/// the matte of a replayed recording decides from the same colour as the box did). Only the rim is
/// touched: alpha is skipped eight pixels at a time where it is all 0 or 255, and each run of
/// partial pixels along a row takes its left and right confident pixels from the run's two ends
/// (every pixel between is partial), so only the column search walks pixel by pixel.
/// The share of background is measured on the colours as shown (RGB; YCbCr frames through the
/// compositor's conversion), the swap is done in the frame's own channels (R, G, B or Y, Cb, Cr:
/// it is affine, so it commutes with the BT.601 conversion). Opaque pixels are never changed:
/// YUYV chroma, shared by a pixel pair, is changed only when the other pixel of the pair is not
/// opaque (two partial pixels get the mean of their two estimates); NV12 chroma, shared by 2x2,
/// is left. Allocates nothing after `init`. Not thread-safe (one per matte engine).
final class RimDecontamination {
    let size: FrameSize
    /// How far a partial pixel looks for opaque and clear pixels, pixels: set by the engine from
    /// the feather radius (a box of radius r leaves partial pixels up to 2r + 1 from solid ones).
    var lookout: Int = 8
    /// The last `run`'s corrections.
    var patch: RimPatch

    init(size: FrameSize) throws(SystemError) {
        self.size = size
        patch = try RimPatch(size: size)
    }

    /// `colour` the camera frame, `alpha` its finished .alpha8 matte (both of `size`): `patch`
    /// becomes the rim's corrected pixels.
    func run(colour: ImageView, alpha: ImageView) {
        precondition(colour.size == size && alpha.size == size)
        patch.clear()
        guard colour.format != .z16 && colour.format != .alpha8 else { return }
        let width = size.width
        // Locals, not the class's properties, inside the loops: no dynamic exclusivity checks.
        let lookout = self.lookout
        var writer = patch.startWriting()
        defer { patch.finish(writer) }
        for y in 0..<size.height {
            let row = alpha.row(y).assumingMemoryBound(to: UInt8.self)
            var x = 0
            while x < width {
                if x + 8 <= width {
                    // Every byte 0 or 255 (all its bits alike): nothing partial among these eight.
                    let word = UnsafeRawPointer(row + x).loadUnaligned(as: UInt64.self)
                    if (word ^ (word >> 1)) & 0x7F7F_7F7F_7F7F_7F7F == 0 {
                        x += 8
                        continue
                    }
                }
                let a = row[x]
                if a == 0 || a == 255 {
                    x += 1
                    continue
                }
                var end = x + 1
                while end < width && row[end] != 0 && row[end] != 255 { end += 1 }
                correctRun(from: x, to: end, y: y, colour: colour, alpha: alpha, lookout: lookout, into: &writer)
                x = end
            }
        }
    }

    @inline(__always)
    private static func alphaAt(_ alpha: ImageView, _ x: Int, _ y: Int) -> UInt8 {
        alpha.row(y).load(fromByteOffset: x, as: UInt8.self)
    }

    /// The nearest opaque or clear pixel from (x, y) along the column (dy = -1 or 1), within `lookout`.
    @inline(__always)
    private func confidentInColumn(_ alpha: ImageView, x: Int, y: Int, dy: Int, lookout: Int) -> (y: Int, opaque: Bool)? {
        // The frame's edge bounds the steps once, not at every step.
        let steps = min(lookout, dy < 0 ? y : size.height - 1 - y)
        guard steps > 0 else { return nil }
        let stride = dy * alpha.bytesPerRow
        var p = UnsafePointer(alpha.base.assumingMemoryBound(to: UInt8.self)) + (y * alpha.bytesPerRow + x)
        for step in 1...steps {
            p += stride
            let a = p.pointee
            if a == 255 { return (y + dy * step, true) }
            if a == 0 { return (y + dy * step, false) }
        }
        return nil
    }

    /// The partial pixels from..<to of row y, bounded by confident pixels (or the frame's edge).
    /// Per pixel, as before the run form: the nearest confident pixel left, right, up, down in that
    /// order, the first opaque one the subject, the first clear one the background, stopping once
    /// both are found.
    private func correctRun(from start: Int, to end: Int, y: Int, colour: ImageView, alpha: ImageView, lookout: Int,
                            into patch: inout RimPatch.Writer) {
        let leftOpaque = start > 0 ? Self.alphaAt(alpha, start - 1, y) == 255 : false
        let rightOpaque = end < size.width ? Self.alphaAt(alpha, end, y) == 255 : false
        @inline(__always) func estimate(_ x: Int) -> SIMD3<Int32>? {
            var subject: (x: Int, y: Int)?
            var ground: (x: Int, y: Int)?
            if start > 0 && x - start + 1 <= lookout {
                if leftOpaque { subject = (start - 1, y) } else { ground = (start - 1, y) }
            }
            if end < size.width && end - x <= lookout {
                if rightOpaque {
                    if subject == nil { subject = (end, y) }
                } else if ground == nil {
                    ground = (end, y)
                }
            }
            var dy = -1
            while dy <= 1 && (subject == nil || ground == nil) {
                if let found = confidentInColumn(alpha, x: x, y: y, dy: dy, lookout: lookout) {
                    if found.opaque {
                        if subject == nil { subject = (x, found.y) }
                    } else if ground == nil {
                        ground = (x, found.y)
                    }
                }
                dy += 2
            }
            guard let subject, let ground else { return nil }
            return correct(x: x, y: y, subject: subject, ground: ground, colour: colour)
        }
        @inline(__always) func packed(_ c: SIMD3<Int32>) -> UInt32 {
            UInt32(c.x) | UInt32(c.y) << 8 | UInt32(c.z) << 16
        }
        guard colour.format == .yuyv else {
            for x in start..<end {
                if let clean = estimate(x) { patch.append(x: x, y: y, value: packed(clean)) }
            }
            return
        }
        // YUYV: a pair shares its chroma. Beside an opaque pixel it stays (opaque pixels never
        // change); beside a clear one it is the partial pixel's; for two partial pixels it is the
        // mean of what each wants (its estimate, or the chroma as it is when it has none), the
        // nearest one chroma gets to both. At most one entry of a pair writes the chroma
        // (RimPatch relies on it).
        var x = start
        while x < end {
            if x & 1 == 0 && x + 1 < end {
                let even = estimate(x)
                let odd = estimate(x + 1)
                if even != nil || odd != nil {
                    let raw = Self.channels(colour, x, y)
                    let wantEven = even ?? raw
                    let wantOdd = odd ?? raw
                    let cb = (wantEven.y + wantOdd.y + 1) >> 1
                    let cr = (wantEven.z + wantOdd.z + 1) >> 1
                    if let even {
                        patch.append(x: x, y: y, value: packed(SIMD3(even.x, cb, cr)) | RimPatch.chromaFlag)
                        if let odd { patch.append(x: x + 1, y: y, value: packed(odd)) }
                    } else if let odd {
                        patch.append(x: x + 1, y: y, value: packed(SIMD3(odd.x, cb, cr)) | RimPatch.chromaFlag)
                    }
                }
                x += 2
                continue
            }
            // The partner is confident (or outside the frame).
            if let clean = estimate(x) {
                let partner = x ^ 1
                let other = partner < size.width ? Self.alphaAt(alpha, partner, y) : 0
                patch.append(x: x, y: y, value: packed(clean) | (other == 255 ? 0 : RimPatch.chromaFlag))
            }
            x += 1
        }
    }

    /// The pixel's colour with the background share swapped for the subject's, in the frame's own
    /// channels; nil where subject and background colours are too alike to tell apart.
    @inline(__always)
    private func correct(x: Int, y: Int, subject: (x: Int, y: Int), ground: (x: Int, y: Int),
                         colour: ImageView) -> SIMD3<Int32>? {
        let f = Self.channels(colour, subject.x, subject.y)
        let b = Self.channels(colour, ground.x, ground.y)
        let i = Self.channels(colour, x, y)
        // The share t is measured on the colours as shown (RGB, the compositor's own conversion
        // for YCbCr frames): a projection is not kept by the YCbCr-to-RGB map (it is not
        // orthogonal), so measured in Y Cb Cr a YUYV camera frame and the same frame as RGB (a
        // recording, `backdrop render`) got different shares and a different rim on screen.
        let ycbcr = colour.format == .yuyv || colour.format == .nv12
        let fm = ycbcr ? Self.shown(f) : f
        let bm = ycbcr ? Self.shown(b) : b
        let im = ycbcr ? Self.shown(i) : i
        let dm = fm &- bm
        let contrast = (dm &* dm).wrappedSum()
        guard contrast >= Int32(ColourEdges.minimumContrast) else { return nil }
        let along = min(contrast, max(0, ((im &- bm) &* dm).wrappedSum()))
        // (1 - t) in 12-bit fixed point: one division per pixel, not one per channel.
        let share = ((contrast - along) << 12) / contrast
        // The swap itself in the frame's channels: affine, so it commutes with the conversion.
        let d = f &- b
        let shifted = i &+ ((d &* share) &>> 12)
        return SIMD3<Int32>(min(255, max(0, shifted.x)), min(255, max(0, shifted.y)), min(255, max(0, shifted.z)))
    }

    /// Y Cb Cr as the compositor shows it, R G B.
    @inline(__always)
    private static func shown(_ c: SIMD3<Int32>) -> SIMD3<Int32> {
        let rgb = YCbCr.rgb(y: c.x, cb: c.y, cr: c.z)
        return SIMD3(rgb.r, rgb.g, rgb.b)
    }

    /// The pixel's three channels in the frame's own order (R G B, B G R, or Y Cb Cr). Internal,
    /// not private: RimPatchTests' full-frame reference reads pixels through it.
    @inline(__always)
    static func channels(_ view: ImageView, _ x: Int, _ y: Int) -> SIMD3<Int32> {
        let row = view.row(y).assumingMemoryBound(to: UInt8.self)
        switch view.format {
        case .rgb24:
            let p = row + 3 * x
            return SIMD3(Int32(p[0]), Int32(p[1]), Int32(p[2]))
        case .xrgb8888, .argb8888:
            let p = row + 4 * x
            return SIMD3(Int32(p[0]), Int32(p[1]), Int32(p[2]))
        case .yuyv:
            let pair = row + 4 * (x >> 1)
            return SIMD3(Int32(row[2 * x]), Int32(pair[1]), Int32(pair[3]))
        case .nv12:
            guard let chroma = view.chromaPlane else { return SIMD3(Int32(row[x]), 128, 128) }
            let line = (chroma + (y >> 1) * view.bytesPerRow).assumingMemoryBound(to: UInt8.self) + 2 * (x >> 1)
            return SIMD3(Int32(row[x]), Int32(line[0]), Int32(line[1]))
        case .z16, .alpha8:
            return SIMD3(0, 0, 0)
        }
    }
}
