import Frames

/// Intrinsics as keys arrive one by one; only a complete set becomes `PinholeIntrinsics`.
struct IntrinsicsDraft {
    var fx: Double? = nil
    var fy: Double? = nil
    var cx: Double? = nil
    var cy: Double? = nil

    var isEmpty: Bool { fx == nil && fy == nil && cx == nil && cy == nil }

    var complete: PinholeIntrinsics? {
        guard let fx, let fy, let cx, let cy else { return nil }
        return PinholeIntrinsics(fx: Float(fx), fy: Float(fy), cx: Float(cx), cy: Float(cy))
    }

    /// Key names (with `prefix`, e.g. "depth_") of the parameters not given.
    func missing(prefix: String) -> [String] {
        var names: [String] = []
        if fx == nil { names.append(prefix + "fx") }
        if fy == nil { names.append(prefix + "fy") }
        if cx == nil { names.append(prefix + "cx") }
        if cy == nil { names.append(prefix + "cy") }
        return names
    }
}
