import Frames

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
/// Reads the camera frame and the finished alpha, writes a copy of the frame: the captured frame
/// stays as it was (photo layers and recordings keep the raw camera colour, and the matte of a
/// replayed recording decides from the same colour as the box did). Works in the frame's own
/// channels (R, G, B or Y, Cb, Cr: the swap is affine, so it commutes with the BT.601
/// conversion). Opaque pixels are never changed: YUYV chroma, shared by a pixel pair, is changed
/// only when the other pixel of the pair is not opaque; NV12 chroma, shared by 2x2, is left.
/// Allocates nothing. Not thread-safe (one per matte engine).
final class RimDecontamination {
    let size: FrameSize
    /// How far a partial pixel looks for opaque and clear pixels, pixels: set by the engine from
    /// the feather radius (a box of radius r leaves partial pixels up to 2r + 1 from solid ones).
    var lookout: Int = 8

    init(size: FrameSize) {
        self.size = size
    }

    /// `colour` the camera frame, `alpha` its finished .alpha8 matte (both of `size`), `output` a
    /// frame of colour's format and size: colour copied with the rim's colour corrected.
    func run(colour: ImageView, alpha: ImageView, into output: ImageView) {
        precondition(colour.size == size && alpha.size == size && output.size == size && output.format == colour.format)
        copy(colour, into: output)
        guard colour.format != .z16 && colour.format != .alpha8 else { return }
        let width = size.width
        for y in 0..<size.height {
            let row = UnsafeRawPointer(alpha.row(y))
            var x = 0
            while x < width {
                if x + 8 <= width {
                    let word = row.loadUnaligned(fromByteOffset: x, as: UInt64.self)
                    if word == 0 || word == ~0 {
                        x += 8
                        continue
                    }
                }
                let a = row.load(fromByteOffset: x, as: UInt8.self)
                if a != 0 && a != 255 { correct(x: x, y: y, colour: colour, alpha: alpha, into: output) }
                x += 1
            }
        }
    }

    private func copy(_ from: ImageView, into to: ImageView) {
        let bytes = from.format.minimumBytesPerRow(width: size.width)
        for y in 0..<size.height { to.row(y).copyMemory(from: UnsafeRawPointer(from.row(y)), byteCount: bytes) }
        if let fromChroma = from.chromaPlane, let toChroma = to.chromaPlane {
            for y in 0..<((size.height + 1) / 2) {
                (toChroma + y * to.bytesPerRow).copyMemory(from: UnsafeRawPointer(fromChroma + y * from.bytesPerRow),
                                                           byteCount: bytes)
            }
        }
    }

    @inline(__always)
    private static func alphaAt(_ alpha: ImageView, _ x: Int, _ y: Int) -> UInt8 {
        alpha.row(y).load(fromByteOffset: x, as: UInt8.self)
    }

    /// The nearest opaque or clear pixel from (x, y) along (dx, dy), within `lookout`.
    @inline(__always)
    private func confident(_ alpha: ImageView, x: Int, y: Int, dx: Int, dy: Int) -> (x: Int, y: Int, opaque: Bool)? {
        var sx = x
        var sy = y
        for _ in 0..<lookout {
            sx += dx
            sy += dy
            if sx < 0 || sy < 0 || sx >= size.width || sy >= size.height { return nil }
            let a = Self.alphaAt(alpha, sx, sy)
            if a == 255 { return (sx, sy, true) }
            if a == 0 { return (sx, sy, false) }
        }
        return nil
    }

    private func correct(x: Int, y: Int, colour: ImageView, alpha: ImageView, into output: ImageView) {
        var subject: (x: Int, y: Int)?
        var ground: (x: Int, y: Int)?
        // Row first (left, right), then column (up, down), stopping once both sides are found.
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
        guard let subject, let ground else { return }
        let f = Self.channels(colour, subject.x, subject.y)
        let b = Self.channels(colour, ground.x, ground.y)
        let i = Self.channels(colour, x, y)
        let d = f &- b
        let contrast = (d &* d).wrappedSum()
        guard contrast >= Int32(ColourEdges.minimumContrast) else { return }
        let along = min(contrast, max(0, ((i &- b) &* d).wrappedSum()))
        // (1 - t) in 12-bit fixed point: one division per pixel, not one per channel.
        let share = ((contrast - along) << 12) / contrast
        let shifted = i &+ ((d &* share) &>> 12)
        let clean = SIMD3<Int32>(min(255, max(0, shifted.x)), min(255, max(0, shifted.y)), min(255, max(0, shifted.z)))
        write(clean, x: x, y: y, alpha: alpha, into: output)
    }

    /// The pixel's three channels in the frame's own order (R G B, B G R, or Y Cb Cr).
    @inline(__always)
    private static func channels(_ view: ImageView, _ x: Int, _ y: Int) -> SIMD3<Int32> {
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

    private func write(_ value: SIMD3<Int32>, x: Int, y: Int, alpha: ImageView, into view: ImageView) {
        let row = view.row(y).assumingMemoryBound(to: UInt8.self)
        switch view.format {
        case .rgb24, .xrgb8888, .argb8888:
            let p = row + (view.format == .rgb24 ? 3 : 4) * x
            p[0] = UInt8(truncatingIfNeeded: value.x)
            p[1] = UInt8(truncatingIfNeeded: value.y)
            p[2] = UInt8(truncatingIfNeeded: value.z)
        case .yuyv:
            row[2 * x] = UInt8(truncatingIfNeeded: value.x)
            // The pair's chroma is its opaque partner's too; with two partial pixels the even one's
            // estimate is kept.
            let partner = x ^ 1
            let other = partner < size.width ? Self.alphaAt(alpha, partner, y) : 0
            if other != 255 && (x & 1 == 0 || other == 0) {
                let pair = row + 4 * (x >> 1)
                pair[1] = UInt8(truncatingIfNeeded: value.y)
                pair[3] = UInt8(truncatingIfNeeded: value.z)
            }
        case .nv12:
            row[x] = UInt8(truncatingIfNeeded: value.x)
        case .z16, .alpha8:
            break
        }
    }
}
