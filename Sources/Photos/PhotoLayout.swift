import Compose
import Frames

/// The shapes a photo writer preallocates for: the composite always, and with
/// `[photos] keep_layers` the camera's colour frame, the matte and the depth frame.
public struct PhotoLayout: Equatable, Sendable {
    public struct Layers: Equatable, Sendable {
        /// YUYV, NV12 or RGB24, as the camera delivers it; written as RGB PNG.
        public var colourFormat: PixelFormat
        public var colourSize: FrameSize
        /// ALPHA8 at this size; written as 8-bit grey PNG.
        public var alphaSize: FrameSize
        /// Z16 at this size; written as 16-bit grey PNG (the recording layout's depth).
        public var depthSize: FrameSize

        public init(colourFormat: PixelFormat, colourSize: FrameSize, alphaSize: FrameSize, depthSize: FrameSize) {
            self.colourFormat = colourFormat
            self.colourSize = colourSize
            self.alphaSize = alphaSize
            self.depthSize = depthSize
        }
    }

    /// How the display composes the picture when the camera is a layer over a backdrop plane.
    public enum Planes: Equatable, Sendable {
        /// The composite given is the whole picture (the CPU blended it, or a writeback).
        case whole
        /// The composite given may be the camera layer alone (ARGB8888, colour multiplied by
        /// alpha or not), to be put over the backdrop the display shows under it.
        case layerOverBackdrop(premultiplied: Bool)
    }

    /// XRGB8888 (or ARGB8888, alpha ignored) at this size: the picture as shown.
    public var compositeSize: FrameSize
    /// nil: the JPEG only.
    public var layers: Layers?
    /// `.layerOverBackdrop`: a backdrop buffer is allocated too, for `capture(layer:over:at:)`.
    public var planes: Planes
    /// With `.layerOverBackdrop`: the layer is camera-sized and the display scales it as this
    /// says (a layer buffer of that size is allocated too); nil: the layer is `compositeSize`.
    public var layerPlacement: LayerPlacement?

    public init(compositeSize: FrameSize, layers: Layers? = nil, planes: Planes = .whole,
                layerPlacement: LayerPlacement? = nil) {
        precondition(layerPlacement == nil || layerPlacement?.outputSize == compositeSize,
                     "a scaled layer is placed on the composite")
        self.compositeSize = compositeSize
        self.layers = layers
        self.planes = planes
        self.layerPlacement = layerPlacement
    }
}
