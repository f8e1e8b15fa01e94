import Frames

/// Draws one line of text, scaled up and centred, into an XRGB8888 (or ARGB8888) image: the
/// messages a box shows when something needs a person's attention. No allocation per draw: the
/// message's UTF-8 bytes are read in place and glyphs come from `BitmapFont`.
public struct TextOverlay {
    /// Text colour as a 0xAARRGGBB word (alpha matters only for ARGB8888 targets).
    public var colour: UInt32
    /// When set, a filled box in this colour is drawn behind the text so it reads on any backdrop.
    public var boxColour: UInt32?
    /// Text width is limited to this share of the image width, in percent.
    public var maximumWidthPercent: Int
    /// Text height (one glyph) is limited to this share of the image height, in percent.
    public var maximumHeightPercent: Int

    public init(colour: UInt32 = 0xFFFF_FFFF, boxColour: UInt32? = 0xFF00_0000,
                maximumWidthPercent: Int = 80, maximumHeightPercent: Int = 12) {
        self.colour = colour
        self.boxColour = boxColour
        self.maximumWidthPercent = maximumWidthPercent
        self.maximumHeightPercent = maximumHeightPercent
    }

    /// The integer scale (image pixels per font pixel) `draw` uses for `message` in `size`; at least 1.
    public func scale(for message: String, in size: FrameSize) -> Int {
        let columns = max(1, message.utf8.count * BitmapFont.advance - 1)
        let byWidth = size.width * maximumWidthPercent / 100 / columns
        let byHeight = size.height * maximumHeightPercent / 100 / BitmapFont.glyphHeight
        return max(1, min(byWidth, byHeight))
    }

    /// Draws `message` centred horizontally, with its middle on row `centreY` (default: the
    /// image's middle). Parts falling outside the image are clipped. Returns the rectangle touched
    /// as (x, y, width, height) so callers can tell what changed.
    @discardableResult
    public func draw(_ message: String, into view: ImageView, centreY: Int? = nil) -> (x: Int, y: Int, width: Int, height: Int) {
        precondition(view.format == .xrgb8888 || view.format == .argb8888, "text draws into XRGB8888 or ARGB8888")
        let scale = scale(for: message, in: view.size)
        let count = message.utf8.count
        let textWidth = max(0, count * BitmapFont.advance - 1) * scale
        let textHeight = BitmapFont.glyphHeight * scale
        let left = (view.size.width - textWidth) / 2
        let top = (centreY ?? view.size.height / 2) - textHeight / 2
        let margin = 2 * scale
        if let boxColour {
            fillRectangle(view, x: left - margin, y: top - margin, width: textWidth + 2 * margin,
                          height: textHeight + 2 * margin, colour: boxColour)
        }
        var index = 0
        for byte in message.utf8 {
            let glyph = BitmapFont.glyph(for: byte)
            let glyphLeft = left + index * BitmapFont.advance * scale
            for row in 0..<BitmapFont.glyphHeight {
                for column in 0..<BitmapFont.glyphWidth where BitmapFont.isSet(glyph, column: column, row: row) {
                    fillRectangle(view, x: glyphLeft + column * scale, y: top + row * scale,
                                  width: scale, height: scale, colour: colour)
                }
            }
            index += 1
        }
        let hasBox = boxColour != nil
        return (x: hasBox ? left - margin : left, y: hasBox ? top - margin : top,
                width: hasBox ? textWidth + 2 * margin : textWidth, height: hasBox ? textHeight + 2 * margin : textHeight)
    }

    private func fillRectangle(_ view: ImageView, x: Int, y: Int, width: Int, height: Int, colour: UInt32) {
        let x0 = max(0, x), x1 = min(view.size.width, x + width)
        let y0 = max(0, y), y1 = min(view.size.height, y + height)
        guard x0 < x1, y0 < y1 else { return }
        // XRGB8888 ignores the top byte; keep it 0xFF so the buffer stays a valid opaque image.
        let word = view.format == .xrgb8888 ? colour | 0xFF00_0000 : colour
        for row in y0..<y1 {
            (view.row(row) + x0 * 4).bindMemory(to: UInt32.self, capacity: x1 - x0).update(repeating: word, count: x1 - x0)
        }
    }
}
