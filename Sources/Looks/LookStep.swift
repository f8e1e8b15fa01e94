/// One step of a look. Colour steps map a pixel's colour alone and fold into one lookup
/// (`ColourLookup`); spatial steps read neighbours and run on whole images (`SpatialPass`), so
/// they apply only where the image is prepared once (the backdrop at decode, an offline render).
///
/// Colour steps work on RGB in 0...1 as Float without clamping between steps (the chain is
/// clamped once at its end, as an editor working in floating point does), so a chain of affine
/// steps stays affine and folds into the lattice exactly. Steps that read luma clamp it to 0...1.
public enum LookStep: Equatable, Sendable {
    /// Grey from BT.601 luma.
    case mono
    /// Mono with an S-curve on luma (deeper blacks, brighter whites).
    case noir
    /// The classic sepia matrix, mixed with the input by `amount` (0...1).
    case sepia(amount: Float)
    /// Mixes toward `colour` multiplied by the pixel's luma, by `amount` (0...1).
    case tint(red: Float, green: Float, blue: Float, amount: Float)
    /// An instant-film look: warm matrix, lifted blacks, softened whites.
    case vintage
    /// Lifts blacks and lowers whites toward mid grey by `amount` (0...1).
    case fade(amount: Float)
    /// Distance from luma scaled by `factor` (0 grey, 1 unchanged, 2 doubled).
    case saturation(factor: Float)
    /// Distance from mid grey scaled by `factor`.
    case contrast(factor: Float)
    /// Multiplies by 2^stops.
    case exposure(stops: Float)
    /// Each channel to one of `levels` (2...64) evenly spaced values.
    case posterize(levels: Int)
    /// Luma through a black-blue-magenta-red-yellow-white ramp.
    case thermal
    /// Inverted luma through a blue-tinted ramp.
    case xray
    /// 1 - c per channel.
    case invert
    /// A table from a .cube file.
    case cube(CubeTable)
    /// Spatial: a box blur of `radius` pixels, three passes (close to a Gaussian).
    case blur(radius: Int)
    /// Spatial: blocks of `size` pixels filled with their mean.
    case pixellate(size: Int)

    public var isColour: Bool {
        switch self {
        case .blur, .pixellate: return false
        default: return true
        }
    }

    /// How the step may be folded: a step that maps each channel by the same function of that
    /// channel alone (`perChannel`), one whose result depends on luma alone (`lumaMap`), or any.
    var shape: StepShape {
        switch self {
        case .fade, .contrast, .exposure, .posterize, .invert: return .perChannel
        case .mono, .noir, .thermal, .xray: return .lumaMap
        case .cube(let table): return table.isOneDimensional ? .perChannel : .general
        default: return .general
        }
    }
}

enum StepShape {
    case perChannel
    case lumaMap
    case general
}
