import Compose
@_spi(Testing) import Frames
import Testing

@Suite struct TextOverlayTests {
    @Test func drawsSomethingCentred() {
        let size = FrameSize(width: 320, height: 180)
        let image = PixelBuffer(format: .xrgb8888, size: size)
        let overlay = TextOverlay(colour: 0xFFFF_FFFF, boxColour: nil)
        let touched = overlay.draw("CAMERA DISCONNECTED", into: image.view)
        var minX = Int.max, maxX = Int.min, minY = Int.max, maxY = Int.min, lit = 0
        for y in 0..<180 {
            for x in 0..<320 where image.row(y).load(fromByteOffset: x * 4, as: UInt32.self) == 0xFFFF_FFFF {
                lit += 1
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        #expect(lit > 100)
        // Centred within a font pixel: equal margins left/right and top/bottom, give or take one scale step.
        let scale = overlay.scale(for: "CAMERA DISCONNECTED", in: size)
        #expect(abs(minX - (319 - maxX)) <= scale)
        #expect(abs(minY - (179 - maxY)) <= scale)
        #expect(touched.width <= 320 * 80 / 100 && touched.x == minX)
    }

    @Test func lowerCaseMatchesUpperCaseAndUnknownIsQuestionMark() {
        #expect(BitmapFont.glyph(for: UInt8(ascii: "a")) == BitmapFont.glyph(for: UInt8(ascii: "A")))
        #expect(BitmapFont.glyph(for: UInt8(ascii: "~")) == BitmapFont.glyph(for: UInt8(ascii: "?")))
        #expect(BitmapFont.glyph(for: UInt8(ascii: " ")) == 0)
        // Every supported character is distinct.
        let characters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.,:-!?'/()%+=;_\"\\[]<>*#&@".utf8)
        let glyphs = Set(characters.map { BitmapFont.glyph(for: $0) })
        #expect(glyphs.count == characters.count)
    }

    @Test func boxIsDrawnBehindAndClippedTextStaysInBounds() {
        let size = FrameSize(width: 40, height: 20)
        let image = PixelBuffer(format: .xrgb8888, size: size)
        // Far too long for the width: scale 1, clipped at both sides, must not write outside.
        TextOverlay(colour: 0xFFFF_0000, boxColour: 0xFF00_00FF).draw("THIS MESSAGE IS TOO LONG", into: image.view)
        var red = 0, blue = 0
        for y in 0..<20 {
            for x in 0..<40 {
                let word = image.row(y).load(fromByteOffset: x * 4, as: UInt32.self)
                if word == 0xFFFF_0000 { red += 1 }
                if word == 0xFF00_00FF { blue += 1 }
            }
        }
        #expect(red > 0 && blue > 0)
    }
}
