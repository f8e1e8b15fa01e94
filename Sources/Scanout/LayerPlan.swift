/// Which configuration the display runs, decided once at start-up by TEST_ONLY commits: the most
/// display work first (a camera-sized layer the display scales), then an output-sized layer the
/// display only blends, then the CPU composing whole frames. The decision is a pure function of
/// the candidates and of what the driver accepts, so a test can play the driver.
public enum LayerPlan: Equatable, Sendable {
    /// Camera-sized ARGB8888 layers on the overlay plane, scaled by the display.
    case scaledPlane(ScaledLayer)
    /// Output-sized ARGB8888 layers on the overlay plane (the CPU scales, the display blends).
    case plane
    /// Whole XRGB8888 frames on the primary plane.
    case cpu

    /// The configurations to try for `blend`, best first. `overlay` says whether the output has
    /// an overlay plane with alpha; `scaled` is the layer asked for (nil: the caller has none).
    public static func candidates(blend: KMSSinkOptions.BlendRequest, overlay: Bool, scaled: ScaledLayer?) -> [LayerPlan] {
        guard blend != .cpu, overlay else { return blend == .plane ? [] : [.cpu] }
        var list: [LayerPlan] = []
        if let scaled { list.append(.scaledPlane(scaled)) }
        list.append(.plane)
        if blend == .auto { list.append(.cpu) }
        return list
    }

    /// The first candidate `test` accepts (`test` returns nil for accepted, the refusal
    /// otherwise), with a sentence saying what runs and why the better ones do not; nil with the
    /// last refusal when none is accepted.
    public static func choose(_ candidates: [LayerPlan], why start: String,
                              test: (LayerPlan) -> ScanoutError?) -> (plan: LayerPlan?, reason: String, refusal: ScanoutError?) {
        var refusals: [String] = []
        var last: ScanoutError? = nil
        for candidate in candidates {
            if let refusal = test(candidate) {
                refusals.append("\(candidate.name) refused (\(refusal.message))")
                last = refusal
                continue
            }
            var reason = candidate.runs
            if !refusals.isEmpty { reason += ": " + refusals.joined(separator: "; ") }
            else if !start.isEmpty { reason += ": " + start }
            return (candidate, reason, nil)
        }
        return (nil, refusals.isEmpty ? start : refusals.joined(separator: "; "), last)
    }

    var name: String {
        switch self {
        case .scaledPlane: return "a scaled overlay"
        case .plane: return "an output-sized overlay"
        case .cpu: return "the CPU-composed frame"
        }
    }

    /// What runs, for the start-up line.
    var runs: String {
        switch self {
        case .scaledPlane(let layer): return "the display scales the camera layer (\(layer.description))"
        case .plane: return "the CPU scales the camera layer, the display blends it"
        case .cpu: return "the CPU composes whole frames"
        }
    }
}
