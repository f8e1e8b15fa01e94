import Frames
import KernelIO

/// Backdrops the project draws itself, so a fresh box and `backdrop demo` show real scenes rather
/// than a flat gradient, and the repository carries no third-party pictures (no licence to track).
/// Drawn by hand because they are procedural scenes of a few shapes; no drawing library is needed
/// or wanted on the board. Each is a pure function of the output size: the same size gives the
/// same pixels on every machine, so tests and the image build can rely on them.
public enum GeneratedBackdrop: Equatable, Sendable {
    case sunset
    case nightSky
    case partyLights
    case studio

    public static let all: [GeneratedBackdrop] = [.sunset, .nightSky, .partyLights, .studio]

    /// File stem used by `backdrop make-backdrops` and in the library's names.
    public var name: String {
        switch self {
        case .sunset: return "sunset"
        case .nightSky: return "night-sky"
        case .partyLights: return "party-lights"
        case .studio: return "studio"
        }
    }

    /// Draws the scene into an XRGB8888 view of any size.
    public func draw(into view: ImageView) {
        precondition(view.format == .xrgb8888, "generated backdrops are drawn as XRGB8888")
        let width = view.size.width, height = view.size.height
        // Coordinates are in units of the picture's height, so shapes keep their proportions on any
        // aspect ratio; x is centred.
        let scale = 1 / Float(max(1, height))
        for y in 0..<height {
            let row = view.row(y).bindMemory(to: UInt32.self, capacity: width)
            let v = Float(y) * scale
            for x in 0..<width {
                let u = (Float(x) - Float(width) / 2) * scale
                row[x] = pack(colour(u: u, v: v, x: x, y: y))
            }
        }
    }

    private func colour(u: Float, v: Float, x: Int, y: Int) -> SIMD3<Float> {
        switch self {
        case .sunset: return Self.sunsetColour(u: u, v: v)
        case .nightSky: return Self.nightColour(u: u, v: v, x: x, y: y)
        case .partyLights: return Self.partyColour(u: u, v: v)
        case .studio: return Self.studioColour(u: u, v: v)
        }
    }

    // A sky from violet to orange over a sea, a low sun with a glow, its reflection broken into bands.
    private static func sunsetColour(u: Float, v: Float) -> SIMD3<Float> {
        let horizon: Float = 0.62
        let sun = SIMD2<Float>(0.18, horizon - 0.09)
        if v < horizon {
            let t = v / horizon
            var sky = mix(SIMD3(70, 40, 120), SIMD3(250, 140, 60), t * t)
            let distance = length(SIMD2(u, v) - sun)
            let glow = max(0, 1 - distance / 0.45)
            sky = sky + SIMD3(255, 170, 80) * (glow * glow * 0.6)
            if distance < 0.075 { return mix(SIMD3(255, 236, 180), sky, smoothstep(0.065, 0.075, distance)) }
            return sky
        }
        let depth = (v - horizon) / (1 - horizon)
        var sea = mix(SIMD3(200, 100, 70), SIMD3(30, 30, 70), min(1, depth * 1.4))
        // The reflection: a column under the sun, cut into ripples that widen towards the viewer.
        let spread = 0.05 + depth * 0.12
        let ripple = fraction((v - horizon) * (14 + 40 * depth))
        if abs(u - sun.x) < spread && ripple < 0.5 {
            sea = mix(sea, SIMD3(255, 210, 140), (1 - abs(u - sun.x) / spread) * 0.8)
        }
        return sea
    }

    // Deep blue with scattered stars of varying brightness and a moon.
    private static func nightColour(u: Float, v: Float, x: Int, y: Int) -> SIMD3<Float> {
        var sky = mix(SIMD3(8, 12, 40), SIMD3(30, 50, 100), v)
        let moon = SIMD2<Float>(-0.55, 0.22)
        let distance = length(SIMD2(u, v) - moon)
        sky = sky + SIMD3(60, 70, 90) * max(0, 1 - distance / 0.3) * max(0, 1 - distance / 0.3)
        if distance < 0.07 { return mix(SIMD3(235, 235, 215), sky, smoothstep(0.062, 0.07, distance)) }
        // Stars on a grid of cells, one star per cell at a hashed position, so the density does
        // not depend on the resolution.
        let cells: Float = 70
        let cellX = Int((u + 4) * cells), cellY = Int(v * cells)
        let hash = mixBits(UInt32(truncatingIfNeeded: cellX) &* 73_856_093 ^ UInt32(truncatingIfNeeded: cellY) &* 19_349_663)
        guard hash & 7 < 3 else { return sky }
        let starU = (Float(cellX) + Float(hash >> 8 & 255) / 255) / cells - 4
        let starV = (Float(cellY) + Float(hash >> 16 & 255) / 255) / cells
        let starDistance = length(SIMD2(u - starU, v - starV)) * cells
        let brightness = Float(hash >> 24 & 255) / 255
        let radius = 0.06 + 0.1 * brightness
        guard starDistance < radius else { return sky }
        return mix(SIMD3(255, 250, 230), sky, starDistance / radius)
    }

    // Out-of-focus party lights: soft discs of warm and saturated colours over dark purple.
    private static func partyColour(u: Float, v: Float) -> SIMD3<Float> {
        var colour = mix(SIMD3(25, 10, 40), SIMD3(50, 15, 50), v)
        let palette: [SIMD3<Float>] = [SIMD3(255, 80, 150), SIMD3(255, 190, 60), SIMD3(80, 200, 255),
                                       SIMD3(170, 90, 255), SIMD3(255, 120, 60)]
        for index in 0..<28 {
            let hash = mixBits(UInt32(index) &* 2_654_435_761 &+ 12345)
            let centre = SIMD2<Float>(Float(hash & 1023) / 1023 * 2.0 - 1.0, Float(hash >> 10 & 1023) / 1023)
            let radius = 0.04 + Float(hash >> 20 & 63) / 63 * 0.09
            let distance = length(SIMD2(u, v) - centre)
            guard distance < radius else { continue }
            // Bokeh discs are nearly flat with a slightly brighter rim, and add light.
            let edge = smoothstep(radius * 0.85, radius, distance)
            let rim: Float = distance > radius * 0.75 ? 1.15 : 1
            colour = colour + palette[index % palette.count] * ((1 - edge) * 0.45 * rim)
        }
        return colour
    }

    // The classic portrait backdrop: mottled grey, lit in the middle, falling off to the corners.
    private static func studioColour(u: Float, v: Float) -> SIMD3<Float> {
        let distance = length(SIMD2(u * 0.8, v - 0.45))
        let light = max(0, 1 - distance * 0.9)
        let mottle = 0.06 * (sine(u * 9 + 1.3) * sine(v * 7 + 0.4) + 0.5 * sine(u * 23 - v * 17))
        let level = 40 + 110 * light * light + 60 * mottle
        return SIMD3(level * 0.95, level, level * 1.05)
    }

    // MARK: small numeric helpers (Foundation is not available in Embedded Swift)

    private func pack(_ colour: SIMD3<Float>) -> UInt32 {
        let clamped = colour.clamped(lowerBound: SIMD3(repeating: 0), upperBound: SIMD3(repeating: 255))
        return 0xFF00_0000 | UInt32(clamped.x) << 16 | UInt32(clamped.y) << 8 | UInt32(clamped.z)
    }

    private static func mix(_ a: SIMD3<Float>, _ b: SIMD3<Float>, _ t: Float) -> SIMD3<Float> {
        a + (b - a) * max(0, min(1, t))
    }

    private static func length(_ vector: SIMD2<Float>) -> Float { (vector * vector).sum().squareRoot() }

    private static func smoothstep(_ edge0: Float, _ edge1: Float, _ x: Float) -> Float {
        let t = max(0, min(1, (x - edge0) / (edge1 - edge0)))
        return t * t * (3 - 2 * t)
    }

    private static func fraction(_ x: Float) -> Float { x - x.rounded(.down) }

    /// A parabolic sine (within about 6 %), enough for mottling; folds the argument into [-pi, pi].
    private static func sine(_ x: Float) -> Float {
        let twoPi: Float = 6.2831853
        var t = x - twoPi * (x / twoPi).rounded()
        t = t * (4 / 3.1415927) - t * abs(t) * (4 / (3.1415927 * 3.1415927))
        return t
    }

    /// An integer hash (lowbias32) so star and light positions look random but are fixed.
    private static func mixBits(_ value: UInt32) -> UInt32 {
        var x = value
        x ^= x >> 16; x = x &* 0x7feb_352d
        x ^= x >> 15; x = x &* 0x846c_a68b
        x ^= x >> 16
        return x
    }
}

extension BackgroundLibrary {
    /// Every generated backdrop drawn at the output size: what `backdrop demo` shows when no
    /// backdrop folder has images.
    public static func generated(outputSize: FrameSize, fit: FitMode = .fill) throws(SystemError) -> BackgroundLibrary {
        let entries = GeneratedBackdrop.all.map { BackdropEntry(name: $0.name, origin: .generated($0)) }
        return try BackgroundLibrary(entries: entries, outputSize: outputSize, fit: fit, usesBuiltInDefault: false)
    }
}
