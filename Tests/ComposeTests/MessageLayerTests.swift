import CAllocCounter
import Compose
import Foundation
@_spi(Testing) import Frames
import Testing

@Suite struct MessageLayerTests {
    static func view(_ slot: MessageSlot, _ text: String, _ style: MessageStyle = .caption) -> MessageView {
        slot.publish(text, style: style)
        return slot.take()
    }

    /// Rows holding at least one white pixel: the glyphs' vertical extent.
    static func litRows(_ image: borrowing PixelBuffer) -> ClosedRange<Int>? {
        var first: Int? = nil, last = 0
        for y in 0..<image.size.height {
            let row = image.row(y).bindMemory(to: UInt32.self, capacity: image.size.width)
            if (0..<image.size.width).contains(where: { row[$0] == 0xFFFF_FFFF }) {
                if first == nil { first = y }
                last = y
            }
        }
        return first.map { $0...last }
    }

    @Test(arguments: [(540, 28), (720, 35), (1080, 56), (2160, 112)])
    func glyphHeightScalesWithTheOutputHeight(height: Int, glyphPixels: Int) throws {
        let size = FrameSize(width: height * 16 / 9, height: height)
        let image = PixelBuffer(format: .xrgb8888, size: size)
        let slot = MessageSlot()
        // H spans every row of its cell.
        MessageLayer(outputSize: size).draw(Self.view(slot, "HH"), into: image.view, rows: 0..<height)
        let lit = Self.litRows(image)
        let rows = try #require(lit)
        #expect(rows.count == glyphPixels)
        #expect(MessageLayer.glyphScale(.caption, outputHeight: height) * BitmapFont.glyphHeight == glyphPixels)
    }

    @Test func captionAndCountdownSitInTheBottomBandAwayFromFaces() throws {
        let size = FrameSize(width: 1920, height: 1080)
        let layer = MessageLayer(outputSize: size)
        let slot = MessageSlot()
        for (text, style) in [("CAMERA DISCONNECTED", MessageStyle.caption), ("3", .countdown)] {
            let region = try #require(layer.region(for: Self.view(slot, text, style)))
            #expect(region.y + region.height == 1080 - 54, "\(text): bottom 5 % above the edge")
            #expect(region.y > 1080 / 2, "\(text): below the middle, where faces are not")
            #expect(abs(region.x - (1920 - region.x - region.width)) <= 1, "\(text): centred")
        }
        let digit = try #require(layer.region(for: Self.view(slot, "3", .countdown)))
        let caption = try #require(layer.region(for: Self.view(slot, "3")))
        #expect(digit.height == 3 * caption.height)
        #expect(MessageLayer.glyphScale(.countdown, outputHeight: 1080) * BitmapFont.glyphHeight == 168)
    }

    @Test func aLongCaptionIsNarrowedToFitTheWidth() throws {
        let size = FrameSize(width: 1280, height: 720)
        let slot = MessageSlot()
        let region = try #require(MessageLayer(outputSize: size).region(for: Self.view(slot, String(repeating: "W", count: 80))))
        #expect(region.width <= 1280 * 9 / 10 + 4 * 2)
        #expect(region.height < (BitmapFont.glyphHeight + 4) * MessageLayer.glyphScale(.caption, outputHeight: 720))
    }

    @Test func anEmptyMessageLeavesTheFrameAlone() {
        let size = FrameSize(width: 64, height: 36)
        let image = PixelBuffer(format: .xrgb8888, size: size)
        for y in 0..<36 { image.row(y).initializeMemory(as: UInt8.self, repeating: 0x5A, count: 64 * 4) }
        let slot = MessageSlot()
        let layer = MessageLayer(outputSize: size)
        #expect(layer.region(for: slot.take()) == nil)
        layer.draw(slot.take(), into: image.view, rows: 0..<36)
        for y in 0..<36 {
            let row = image.row(y).assumingMemoryBound(to: UInt8.self)
            #expect((0..<256).allSatisfy { row[$0] == 0x5A })
        }
    }

    /// Bands drawn separately (as the compose workers do) give exactly the whole drawing.
    @Test func drawingInBandsEqualsDrawingWhole() {
        let size = FrameSize(width: 640, height: 360)
        let whole = PixelBuffer(format: .xrgb8888, size: size)
        let banded = PixelBuffer(format: .xrgb8888, size: size)
        let slot = MessageSlot()
        let message = Self.view(slot, "SKIPPED SUNSET.TIF: NOT A PNG OR JPEG")
        let layer = MessageLayer(outputSize: size)
        layer.draw(message, into: whole.view, rows: 0..<360)
        // Band edges that cut through the box and through glyph rows.
        for band in [0..<100, 100..<317, 317..<321, 321..<360] { layer.draw(message, into: banded.view, rows: band) }
        var differing = 0
        for y in 0..<360 where memcmp(whole.row(y), banded.row(y), 640 * 4) != 0 { differing += 1 }
        #expect(differing == 0)
    }

    /// What the virtual-board tests do: the message region of a composed frame equals the layer
    /// rendered alone, whatever the frame had there before.
    @Test func theRegionOfADrawnFrameMatchesTheLayerRenderedAlone() throws {
        let size = FrameSize(width: 800, height: 450)
        let frame = PixelBuffer(format: .xrgb8888, size: size)
        for y in 0..<450 {
            let row = frame.row(y).bindMemory(to: UInt32.self, capacity: 800)
            for x in 0..<800 { row[x] = 0xFF00_0000 | UInt32(x & 0xFF) << 8 | UInt32(y & 0xFF) }
        }
        let layer = MessageLayer(outputSize: size)
        let slot = MessageSlot()
        let text = "12 backdrops, new config"
        layer.draw(Self.view(slot, text), into: frame.view, rows: 0..<450)
        let alone = PixelBuffer(format: .argb8888, size: size)
        layer.render(text, into: alone.view)
        let region = try #require(layer.region(for: slot.take()))
        var differing = 0
        for y in region.y..<(region.y + region.height) {
            let a = frame.row(y).bindMemory(to: UInt32.self, capacity: 800)
            let b = alone.row(y).bindMemory(to: UInt32.self, capacity: 800)
            for x in region.x..<(region.x + region.width) where a[x] != b[x] { differing += 1 }
        }
        #expect(differing == 0)
        // Outside the region the rendering is transparent.
        let outside = alone.row(region.y - 1).bindMemory(to: UInt32.self, capacity: 800)
        #expect((0..<800).allSatisfy { outside[$0] == 0 })
    }

    @Test func drawsOpaquePixelsIntoAnOverlayLayer() {
        let size = FrameSize(width: 320, height: 180)
        let layer = PixelBuffer(format: .argb8888, size: size)
        MessageLayer(outputSize: size).render("PHOTO SAVED", into: layer.view)
        var alphas = Set<UInt32>()
        for y in 0..<180 {
            let row = layer.row(y).bindMemory(to: UInt32.self, capacity: 320)
            for x in 0..<320 { alphas.insert(row[x] >> 24) }
        }
        #expect(alphas == [0, 0xFF])
    }

    /// The frame path's promise, with a message on screen: publishing, taking and drawing allocate nothing.
    @Test func publishTakeAndDrawAllocateNothing() {
        guard alloc_counter_available() == 1 else {
            print("skipped: allocations are not counted in a ThreadSanitizer build")
            return
        }
        let size = FrameSize(width: 1280, height: 720)
        let image = PixelBuffer(format: .xrgb8888, size: size)
        let slot = MessageSlot()
        let layer = MessageLayer(outputSize: size)
        let texts = ["3", "2", "1", "PHOTO SAVED", "CAMERA DISCONNECTED"]
        slot.publish("warm-up")
        layer.draw(slot.take(), into: image.view, rows: 0..<720)
        alloc_counter_track_this_thread(1)
        defer { alloc_counter_track_this_thread(0) }
        alloc_counter_start()
        for round in 0..<100 {
            slot.publish(texts[round % texts.count], style: round % texts.count < 3 ? .countdown : .caption)
            layer.draw(slot.take(), into: image.view, rows: 0..<360)
            layer.draw(slot.take(), into: image.view, rows: 360..<720)
        }
        let allocations = alloc_counter_stop()
        #expect(allocations == 0)
    }
}
