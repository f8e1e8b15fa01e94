import Frames

/// The on-screen message, drawn by the compose pass over the finished frame (or into the
/// display's overlay layer): white `BitmapFont` text on an opaque black box, centred in a band
/// whose bottom sits 5 % above the bottom edge. The bottom, not the top or the middle, because
/// faces are in the upper half of a booth's picture and the bottom 5 % may be lost to a TV's
/// overscan.
///
/// Size follows the output height so it reads the same on any mode, from 3 m away:
/// - captions: glyphs `height / 135` pixels per font pixel, i.e. 8 at 1080p: glyphs 56 px tall
///   (about 35 mm on a 55" TV, 21 mm on a 32" one; text at 3 m needs about 15 mm);
/// - countdown digits: `height / 45`, i.e. 24 at 1080p: digits 168 px tall.
/// A caption too wide for 90 % of the width is drawn smaller, down to one pixel per font pixel.
///
/// Opaque pixels are the same in straight and premultiplied alpha, so one drawing serves the
/// CPU-blended frame (XRGB8888) and the overlay plane (ARGB8888) alike. Never allocates: bands
/// of rows may be drawn by different threads at once (each call touches only `rows`).
///
/// Into a camera-sized layer the display scales (`init(placement:)`), the message is laid out at
/// the output's size as everywhere else, and each layer pixel takes the value of the output pixel
/// in the middle of the run the display will stretch it over: the screen shows the output-sized
/// message to within half a layer pixel at each edge, where drawing it at the camera's size would
/// put it elsewhere (fill crops the layer's bottom rows away) and at another size.
public struct MessageLayer {
    public let outputSize: FrameSize
    public var textColour: UInt32 = 0xFFFF_FFFF
    public var boxColour: UInt32 = 0xFF00_0000
    /// Set for a camera-sized layer: the buffers drawn into are `placement.layerSize`.
    public let placement: LayerPlacement?
    /// Per layer column (row): the output column (row) it stands for, -1 where the display does
    /// not show it. Built once.
    private let shownColumn: [Int32]
    private let shownRow: [Int32]

    public init(outputSize: FrameSize) {
        precondition(outputSize.width > 0 && outputSize.height > 0)
        self.outputSize = outputSize
        placement = nil
        shownColumn = []
        shownRow = []
    }

    /// The message as the display will show a camera-sized layer placed by `placement`.
    public init(placement: LayerPlacement) {
        outputSize = placement.outputSize
        self.placement = placement
        shownColumn = Self.middles(placement.mapping.sourceColumn, count: placement.layerSize.width)
        shownRow = Self.middles(placement.mapping.sourceRow, count: placement.layerSize.height)
    }

    /// For each source index, the middle of the output run that reads it (-1: none does).
    private static func middles(_ sources: [Int32], count: Int) -> [Int32] {
        var first = [Int](repeating: -1, count: count), last = [Int](repeating: -1, count: count)
        for (output, source) in sources.enumerated() where source >= 0 {
            if first[Int(source)] < 0 { first[Int(source)] = output }
            last[Int(source)] = output
        }
        var middle = [Int32](repeating: -1, count: count)
        for index in 0..<count where first[index] >= 0 { middle[index] = Int32((first[index] + last[index]) / 2) }
        return middle
    }

    /// Output pixels per font pixel for `style` before any narrowing for width.
    public static func glyphScale(_ style: MessageStyle, outputHeight: Int) -> Int {
        max(1, outputHeight / (style == .countdown ? 45 : 135))
    }

    /// The rectangle the message covers (its box), clipped to the output; nil when it is empty.
    public func region(for message: MessageView) -> (x: Int, y: Int, width: Int, height: Int)? {
        guard let box = layout(message) else { return nil }
        let x0 = max(0, box.left), x1 = min(outputSize.width, box.left + box.width)
        let y0 = max(0, box.top), y1 = min(outputSize.height, box.top + box.height)
        guard x0 < x1, y0 < y1 else { return nil }
        return (x0, y0, x1 - x0, y1 - y0)
    }

    /// The region `text` would cover, escaped and cut as the slot does. Allocates; not for the frame path.
    public func region(for text: String, style: MessageStyle = .caption) -> (x: Int, y: Int, width: Int, height: Int)? {
        let slot = MessageSlot()
        slot.publish(text, style: style)
        return region(for: slot.take())
    }

    /// Draws `message` into `rows` of `output` (XRGB8888 or ARGB8888 at `outputSize`, or at the
    /// placement's layer size).
    public func draw(_ message: MessageView, into output: ImageView, rows: Range<Int>) {
        if let placement {
            precondition(output.format == .argb8888 && output.size == placement.layerSize,
                         "the message layer draws into an ARGB8888 layer at the placement's layer size")
            precondition(rows.lowerBound >= 0 && rows.upperBound <= placement.layerSize.height, "rows outside the layer")
            drawShown(message, into: output, rows: rows)
            return
        }
        precondition((output.format == .xrgb8888 || output.format == .argb8888) && output.size == outputSize,
                     "the message layer draws into XRGB8888 or ARGB8888 at the output size")
        precondition(rows.lowerBound >= 0 && rows.upperBound <= outputSize.height, "rows outside the output")
        guard let box = layout(message) else { return }
        // XRGB8888 ignores the top byte; keep it 0xFF so the buffer stays a valid opaque image.
        let opaque: UInt32 = output.format == .xrgb8888 ? 0xFF00_0000 : 0
        fill(output, rows: rows, x: box.left, y: box.top, width: box.width, height: box.height, word: boxColour | opaque)
        let scale = box.scale
        let textLeft = box.left + 2 * scale, textTop = box.top + 2 * scale
        let word = textColour | opaque
        for glyphRow in 0..<BitmapFont.glyphHeight {
            let y = textTop + glyphRow * scale
            guard y < rows.upperBound && y + scale > rows.lowerBound else { continue }
            var x = textLeft
            for byte in message.bytes {
                let glyph = BitmapFont.glyph(for: byte)
                for column in 0..<BitmapFont.glyphWidth where BitmapFont.isSet(glyph, column: column, row: glyphRow) {
                    fill(output, rows: rows, x: x + column * scale, y: y, width: scale, height: scale, word: word)
                }
                x += BitmapFont.advance * scale
            }
        }
    }

    /// The message layer alone: `output` cleared to transparent black, then `text` drawn as the
    /// compose pass would draw it (escaped and cut the same way, through a `MessageSlot`). For
    /// comparing a captured frame's message region. Allocates; not for the frame path.
    public func render(_ text: String, style: MessageStyle = .caption, into output: ImageView) {
        for row in 0..<output.size.height {
            output.row(row).initializeMemory(as: UInt8.self, repeating: 0, count: output.size.width * 4)
        }
        let slot = MessageSlot()
        slot.publish(text, style: style)
        draw(slot.take(), into: output, rows: 0..<outputSize.height)
    }

    /// Each layer pixel the display shows takes the output-sized drawing's value at the output
    /// pixel it stands for; the rest of the layer is left as compose wrote it.
    private func drawShown(_ message: MessageView, into layer: ImageView, rows: Range<Int>) {
        guard let box = layout(message) else { return }
        let width = layer.size.width
        let boxRows = box.top..<(box.top + box.height), boxColumns = box.left..<(box.left + box.width)
        let cell = BitmapFont.advance * box.scale
        let textLeft = box.left + 2 * box.scale, textTop = box.top + 2 * box.scale
        for v in rows {
            let y = Int(shownRow[v])
            guard boxRows.contains(y) else { continue }
            let line = layer.row(v).bindMemory(to: UInt32.self, capacity: width)
            let glyphRow = (y - textTop) >= 0 ? (y - textTop) / box.scale : -1
            for u in 0..<width {
                let x = Int(shownColumn[u])
                guard boxColumns.contains(x) else { continue }
                var text = false
                let offset = x - textLeft
                if glyphRow >= 0 && glyphRow < BitmapFont.glyphHeight && offset >= 0 && offset / cell < message.bytes.count {
                    let column = (offset % cell) / box.scale
                    text = column < BitmapFont.glyphWidth
                        && BitmapFont.isSet(BitmapFont.glyph(for: message.bytes[offset / cell]), column: column, row: glyphRow)
                }
                line[u] = text ? textColour : boxColour
            }
        }
    }

    private func layout(_ message: MessageView) -> (left: Int, top: Int, width: Int, height: Int, scale: Int)? {
        guard !message.isEmpty else { return nil }
        let columns = message.bytes.count * BitmapFont.advance - 1
        let byWidth = max(1, outputSize.width * 9 / 10 / columns)
        let scale = min(Self.glyphScale(message.style, outputHeight: outputSize.height), byWidth)
        // The box: the text plus two font pixels all round.
        let width = (columns + 4) * scale
        let height = (BitmapFont.glyphHeight + 4) * scale
        let bottom = outputSize.height - outputSize.height / 20
        return ((outputSize.width - width) / 2, bottom - height, width, height, scale)
    }

    private func fill(_ view: ImageView, rows: Range<Int>, x: Int, y: Int, width: Int, height: Int, word: UInt32) {
        let x0 = max(0, x), x1 = min(outputSize.width, x + width)
        let y0 = max(rows.lowerBound, y), y1 = min(rows.upperBound, y + height)
        guard x0 < x1, y0 < y1 else { return }
        for row in y0..<y1 {
            (view.row(row) + x0 * 4).bindMemory(to: UInt32.self, capacity: x1 - x0).update(repeating: word, count: x1 - x0)
        }
    }
}
