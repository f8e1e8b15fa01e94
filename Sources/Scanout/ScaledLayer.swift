import Frames

/// A rectangle in whole pixels: of a framebuffer (a plane's source) or of the CRTC (its target).
public struct PlaneRect: Equatable, Sendable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}

/// A camera-sized layer that the display scales: the overlay plane reads `source` of a `size`
/// framebuffer and shows it over `target` of the CRTC, so compose works at the camera's pixel
/// count and the display controller does the upscale and the blend over the backdrop plane.
/// The caller derives both rectangles from the compositor's camera mapping (fill crops the
/// source, fit shrinks the target), so the display samples what the CPU path would have.
public struct ScaledLayer: Equatable, Sendable {
    public var size: FrameSize
    public var source: PlaneRect
    public var target: PlaneRect

    public init(size: FrameSize, source: PlaneRect, target: PlaneRect) {
        self.size = size
        self.source = source
        self.target = target
    }

    public var description: String { "\(size.description) layer, \(source) onto \(target)" }
}
