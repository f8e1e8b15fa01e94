import Frames

/// The picture a display shows when it blends the camera layer (overlay plane, ARGB8888) over the
/// backdrop (primary plane) itself: what a photo must be where there is no writeback to read it
/// back. The same arithmetic as the CPU's frame-mode blend (`AlphaBlend`): for a straight layer
/// out = round((fg a + bg (255 - a)) / 255), bit for bit the frame mode's composite; for a
/// premultiplied one out = fg' + round(bg (255 - a) / 255), where fg' was already rounded once,
/// so it can differ from the frame mode by 1.
///
/// For a photo, once, on the photo writer's thread: a plain loop over the pixels, not the frame
/// path's vector kernels. Nothing is allocated.
public enum LayerFlatten {
    /// Writes layer-over-backdrop into `output` (XRGB8888, opaque). `layer` and `output` may be
    /// the same buffer. All three have the same size.
    public static func flatten(layer: ImageView, premultiplied: Bool, over backdrop: ImageView, into output: ImageView) {
        precondition(layer.size == backdrop.size && layer.size == output.size, "flatten needs equal sizes")
        for y in 0..<layer.size.height {
            let top = layer.row(y).bindMemory(to: UInt32.self, capacity: layer.size.width)
            let under = backdrop.row(y).bindMemory(to: UInt32.self, capacity: layer.size.width)
            let out = output.row(y).bindMemory(to: UInt32.self, capacity: layer.size.width)
            for x in 0..<layer.size.width { out[x] = over(top[x], under[x], premultiplied: premultiplied) }
        }
    }

    /// The same for a camera-sized layer the display scales: output pixel (x, y) shows layer
    /// pixel (sourceColumn[x], sourceRow[y]) of `placement`'s mapping over the backdrop, and the
    /// backdrop alone where the layer does not reach (fit's letterbox). `backdrop` and `output`
    /// are `placement.outputSize` and may be the same buffer; `layer` is `placement.layerSize`
    /// and must not overlap them.
    public static func flatten(layer: ImageView, placedBy placement: LayerPlacement, premultiplied: Bool,
                               over backdrop: ImageView, into output: ImageView) {
        precondition(layer.size == placement.layerSize && backdrop.size == placement.outputSize
                     && output.size == placement.outputSize, "flatten needs the placement's sizes")
        let width = output.size.width
        let columns = placement.mapping.sourceColumn, rows = placement.mapping.sourceRow
        for y in 0..<output.size.height {
            let under = backdrop.row(y).bindMemory(to: UInt32.self, capacity: width)
            let out = output.row(y).bindMemory(to: UInt32.self, capacity: width)
            let sourceY = Int(rows[y])
            guard sourceY >= 0 else {
                for x in 0..<width { out[x] = under[x] | 0xFF00_0000 }
                continue
            }
            let top = layer.row(sourceY).bindMemory(to: UInt32.self, capacity: layer.size.width)
            for x in 0..<width {
                let sourceX = Int(columns[x])
                out[x] = sourceX >= 0 ? over(top[sourceX], under[x], premultiplied: premultiplied) : under[x] | 0xFF00_0000
            }
        }
    }

    @inline(__always)
    private static func over(_ pixel: UInt32, _ back: UInt32, premultiplied: Bool) -> UInt32 {
        let alpha = Int32(pixel >> 24)
        var word: UInt32 = 0xFF00_0000
        for shift in stride(from: UInt32(0), through: 16, by: 8) {
            let fg = Int32((pixel >> shift) & 0xFF), bg = Int32((back >> shift) & 0xFF)
            let value = premultiplied ? min(fg &+ AlphaBlend.divide255(bg &* (255 &- alpha)), 255)
                                      : AlphaBlend.blend(fg, bg, alpha: alpha)
            word |= UInt32(value) << shift
        }
        return word
    }
}
