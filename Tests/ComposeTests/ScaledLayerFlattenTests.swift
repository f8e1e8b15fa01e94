import Compose
import Foundation
@_spi(Testing) import Frames
import Testing

/// A camera-sized layer the display scales (LayerPlacement): the photo without writeback
/// (LayerFlatten) and the message drawn into the layer must be what the display shows. The
/// reference here is written independently: nearest sample by pixel centre in floating point,
/// floor(source + (i + 0.5) * sourceCount / targetCount), over the fit rectangles worked out by hand.
@Suite struct ScaledLayerFlattenTests {
    /// The camera rectangle (source) and where it lands (target), for fill and fit, by the
    /// definitions in CameraMapping's comment (centred, rounded to the nearest pixel).
    static func rectangles(camera: FrameSize, output: FrameSize, fit: FitMode)
        -> (source: (x: Int, y: Int, w: Int, h: Int), target: (x: Int, y: Int, w: Int, h: Int)) {
        let cameraAspect = Double(camera.width) / Double(camera.height)
        let outputAspect = Double(output.width) / Double(output.height)
        var source = (x: 0, y: 0, w: camera.width, h: camera.height)
        var target = (x: 0, y: 0, w: output.width, h: output.height)
        switch fit {
        case .fill:
            if cameraAspect > outputAspect {
                source.w = Int((Double(camera.height) * outputAspect).rounded())
                source.x = (camera.width - source.w) / 2
            } else {
                source.h = Int((Double(camera.width) / outputAspect).rounded())
                source.y = (camera.height - source.h) / 2
            }
        case .fit:
            if cameraAspect > outputAspect {
                target.h = Int((Double(output.width) / cameraAspect).rounded())
                target.y = (output.height - target.h) / 2
            } else {
                target.w = Int((Double(output.height) * cameraAspect).rounded())
                target.x = (output.width - target.w) / 2
            }
        case .stretch:
            break
        }
        return (source, target)
    }

    static func nearest(_ index: Int, source: Int, sourceCount: Int, target: Int, targetCount: Int) -> Int? {
        guard index >= target && index < target + targetCount else { return nil }
        let position = (Double(index - target) + 0.5) * Double(sourceCount) / Double(targetCount)
        return source + min(Int(position.rounded(.down)), sourceCount - 1)
    }

    /// A layer with every alpha from clear to opaque and colours that differ per pixel.
    static func layer(_ size: FrameSize, premultiplied: Bool) -> PixelBuffer {
        let buffer = PixelBuffer(format: .argb8888, size: size)
        for y in 0..<size.height {
            let row = buffer.row(y).bindMemory(to: UInt32.self, capacity: size.width)
            for x in 0..<size.width {
                let alpha = UInt32((x * 7 + y * 3) % 256)
                var r = UInt32((x * 5) & 0xFF), g = UInt32((y * 11) & 0xFF), b = UInt32((x ^ y) & 0xFF)
                if premultiplied { r = (r * alpha + 127) / 255; g = (g * alpha + 127) / 255; b = (b * alpha + 127) / 255 }
                row[x] = alpha << 24 | r << 16 | g << 8 | b
            }
        }
        return buffer
    }

    static func backdrop(_ size: FrameSize) -> PixelBuffer {
        let buffer = PixelBuffer(format: .xrgb8888, size: size)
        for y in 0..<size.height {
            let row = buffer.row(y).bindMemory(to: UInt32.self, capacity: size.width)
            for x in 0..<size.width {
                row[x] = 0xFF00_0000 | UInt32(x * 255 / size.width) << 16 | UInt32(y * 255 / size.height) << 8 | 0x40
            }
        }
        return buffer
    }

    static func over(_ pixel: UInt32, _ back: UInt32, premultiplied: Bool) -> UInt32 {
        let alpha = Double(pixel >> 24)
        var word: UInt32 = 0xFF00_0000
        for shift: UInt32 in [16, 8, 0] {
            let fg = Double((pixel >> shift) & 0xFF), bg = Double((back >> shift) & 0xFF)
            let value = premultiplied ? min(fg + (bg * (255 - alpha) / 255).rounded(), 255)
                                      : ((fg * alpha + bg * (255 - alpha)) / 255).rounded()
            word |= UInt32(value) << shift
        }
        return word
    }

    @Test(arguments: [(FrameSize(width: 640, height: 480), FrameSize(width: 1920, height: 1080), FitMode.fill),
                      (FrameSize(width: 640, height: 480), FrameSize(width: 1920, height: 1080), FitMode.fit),
                      (FrameSize(width: 640, height: 480), FrameSize(width: 1024, height: 768), FitMode.fill),
                      (FrameSize(width: 848, height: 480), FrameSize(width: 1024, height: 768), FitMode.fill),
                      (FrameSize(width: 848, height: 480), FrameSize(width: 1024, height: 768), FitMode.fit),
                      (FrameSize(width: 320, height: 240), FrameSize(width: 848, height: 480), FitMode.stretch)])
    func theFlattenedScaledLayerIsTheNearestComposition(camera: FrameSize, output: FrameSize, fit: FitMode) {
        let placement = LayerPlacement(layer: camera, output: output, fit: fit)
        let (source, target) = Self.rectangles(camera: camera, output: output, fit: fit)
        let back = Self.backdrop(output)
        for premultiplied in [false, true] {
            let top = Self.layer(camera, premultiplied: premultiplied)
            let flat = PixelBuffer(format: .xrgb8888, size: output)
            LayerFlatten.flatten(layer: top.view, placedBy: placement, premultiplied: premultiplied, over: back.view, into: flat.view)
            var wrong = 0, layerPixels = 0
            for y in 0..<output.height {
                let out = flat.row(y).bindMemory(to: UInt32.self, capacity: output.width)
                let under = back.row(y).bindMemory(to: UInt32.self, capacity: output.width)
                let sourceY = Self.nearest(y, source: source.y, sourceCount: source.h, target: target.y, targetCount: target.h)
                for x in 0..<output.width {
                    let sourceX = Self.nearest(x, source: source.x, sourceCount: source.w, target: target.x, targetCount: target.w)
                    var expected = under[x]
                    if let sourceX, let sourceY {
                        expected = Self.over(top.row(sourceY).load(fromByteOffset: sourceX * 4, as: UInt32.self), under[x],
                                             premultiplied: premultiplied)
                        layerPixels += 1
                    }
                    if out[x] != expected { wrong += 1 }
                }
            }
            #expect(wrong == 0, "\(camera.description) -> \(output.description) \(fit), premultiplied \(premultiplied): \(wrong) pixels differ")
            #expect(layerPixels == target.w * target.h)
        }
    }

    @Test func theFlattenAtEqualSizesIsTheSameAsWithoutPlacement() {
        let size = FrameSize(width: 96, height: 72)
        let top = Self.layer(size, premultiplied: true), back = Self.backdrop(size)
        let plain = PixelBuffer(format: .xrgb8888, size: size), placed = PixelBuffer(format: .xrgb8888, size: size)
        LayerFlatten.flatten(layer: top.view, premultiplied: true, over: back.view, into: plain.view)
        LayerFlatten.flatten(layer: top.view, placedBy: LayerPlacement(layer: size, output: size, fit: .fill),
                             premultiplied: true, over: back.view, into: placed.view)
        for y in 0..<size.height {
            #expect(memcmp(plain.row(y), placed.row(y), size.width * 4) == 0, "row \(y)")
        }
    }

    /// The message drawn into the camera-sized layer, scaled up as the display scales it, is the
    /// output-sized message: every pixel of the output drawing's box region matches except within
    /// one stretched layer pixel of an edge of the drawing, and nothing is cropped away (fill
    /// hides the layer's bottom rows, where a message laid out at the camera's size would sit).
    @Test(arguments: [(FrameSize(width: 640, height: 480), FrameSize(width: 1920, height: 1080), FitMode.fill, MessageStyle.caption),
                      (FrameSize(width: 640, height: 480), FrameSize(width: 1920, height: 1080), FitMode.fill, MessageStyle.countdown),
                      (FrameSize(width: 640, height: 480), FrameSize(width: 1024, height: 768), FitMode.fill, MessageStyle.countdown),
                      (FrameSize(width: 848, height: 480), FrameSize(width: 1920, height: 1080), FitMode.fit, MessageStyle.caption)])
    func theMessageInTheScaledLayerIsTheOutputSizedMessage(camera: FrameSize, output: FrameSize, fit: FitMode, style: MessageStyle) throws {
        let text = style == .countdown ? "7" : "PHOTO SAVED: 12"
        let reference = PixelBuffer(format: .argb8888, size: output)
        let plain = MessageLayer(outputSize: output)
        plain.render(text, style: style, into: reference.view)
        let region = try #require(plain.region(for: text, style: style))

        let placement = LayerPlacement(layer: camera, output: output, fit: fit)
        let layer = PixelBuffer(format: .argb8888, size: camera)
        for y in 0..<camera.height { layer.row(y).initializeMemory(as: UInt8.self, repeating: 0, count: camera.width * 4) }
        let slot = MessageSlot()
        slot.publish(text, style: style)
        let shown = MessageLayer(placement: placement)
        let message = slot.take()
        // In two bands, as the compute workers draw it.
        shown.draw(message, into: layer.view, rows: 0..<camera.height / 2)
        shown.draw(message, into: layer.view, rows: (camera.height / 2)..<camera.height)

        let (source, target) = Self.rectangles(camera: camera, output: output, fit: fit)
        let reach = (target.w + source.w - 1) / source.w
        func referencePixel(_ x: Int, _ y: Int) -> UInt32 {
            guard x >= 0, y >= 0, x < output.width, y < output.height else { return 0 }
            return reference.row(y).load(fromByteOffset: x * 4, as: UInt32.self)
        }
        var differing = 0, unexplained = 0
        for y in region.y..<(region.y + region.height) {
            for x in region.x..<(region.x + region.width) {
                let sourceX = Self.nearest(x, source: source.x, sourceCount: source.w, target: target.x, targetCount: target.w)
                let sourceY = Self.nearest(y, source: source.y, sourceCount: source.h, target: target.y, targetCount: target.h)
                let seen = sourceX.flatMap { sx in sourceY.map { sy in layer.row(sy).load(fromByteOffset: sx * 4, as: UInt32.self) } } ?? 0
                let wanted = referencePixel(x, y)
                guard seen != wanted else { continue }
                differing += 1
                // A mismatch is a rounding of an edge: the drawing changes value within reach.
                var nearEdge = false
                for dy in -reach...reach { for dx in -reach...reach where referencePixel(x + dx, y + dy) != wanted { nearEdge = true } }
                if !nearEdge { unexplained += 1 }
            }
        }
        #expect(unexplained == 0, "\(unexplained) pixels of the message differ away from any edge")
        #expect(differing * 10 < region.width * region.height, "\(differing) of \(region.width * region.height) differ")
    }
}
