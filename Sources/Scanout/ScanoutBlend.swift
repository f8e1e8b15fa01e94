/// Where the camera layer is blended over the backdrop.
public enum ScanoutBlend: Equatable, Sendable {
    /// The CPU composes a finished XRGB8888 frame; one plane.
    case cpu
    /// The backdrop sits still on the primary plane and the camera layer, ARGB8888 with the matte
    /// as alpha, goes on an overlay plane the display controller blends. `premultiplied` says how
    /// the layer must be written: colour already multiplied by alpha (vkms, and the DRM default
    /// when a plane has no "pixel blend mode" property) or straight ("Coverage").
    case plane(premultiplied: Bool)

    public var description: String {
        switch self {
        case .cpu: return "cpu"
        case .plane(let premultiplied): return premultiplied ? "plane (premultiplied)" : "plane (coverage)"
        }
    }
}
