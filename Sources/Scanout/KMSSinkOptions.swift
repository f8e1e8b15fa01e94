import Frames

/// What the KMS sink is asked for (the `[output]` settings, minus the parts it does not use).
public struct KMSSinkOptions: Equatable, Sendable {
    public enum BlendRequest: UInt8, Sendable {
        /// Overlay plane when the display has one with alpha and accepts the configuration, else CPU.
        case auto
        case cpu
        /// Overlay plane or fail.
        case plane
    }

    /// A card path, or nil to find the KMS card by capability.
    public var card: String? = nil
    /// The mode's size, or nil for `auto` (DisplayMode.choose).
    public var mode: FrameSize? = nil
    public var blend: BlendRequest = .auto
    /// Keep the writeback connector on the CRTC so frames can be captured (photos, tests).
    public var writeback: Bool = false
    /// Scanout buffers for the camera layer (or whole frame): 2 or 3.
    public var slotCount: Int = 3
    /// A camera-sized layer for the display to scale, tried first when blend is not `.cpu`
    /// (see `LayerPlan`); nil asks only for output-sized layers.
    public var scaledLayer: ScaledLayer? = nil

    public init(card: String? = nil, mode: FrameSize? = nil, blend: BlendRequest = .auto,
                writeback: Bool = false, slotCount: Int = 3, scaledLayer: ScaledLayer? = nil) {
        self.card = card
        self.mode = mode
        self.blend = blend
        self.writeback = writeback
        self.slotCount = slotCount
        self.scaledLayer = scaledLayer
    }
}
