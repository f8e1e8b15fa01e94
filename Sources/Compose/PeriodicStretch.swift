/// A nearest-sample column mapping that repeats every three output columns, as the box's two
/// exact ratios under 1080p do: 1280 -> 1920 (two camera columns to three, offsets 0, 1, 1) and
/// 640 -> 1920 (one to three, offsets 0, 0, 0). Where it holds, the scaled frame path blends
/// straight from the converted camera row, twelve output words from one or two four-word loads
/// by constant lane shuffles (pshufd/shufps on SSE2), instead of stretching the row word by word
/// through the column table into a second buffer and reading that back. Any other mapping (848
/// columns, fit with odd offsets, downscales) keeps the table stretch.
///
/// `origin` is an output column where a period starts: for every active x,
/// sourceColumn[x] = sourceColumn[origin] + step * k + offsets[r] with x - origin = 3k + r,
/// 0 <= r < 3 (k may be -1 before `origin`). Found once at start-up.
struct PeriodicStretch: Equatable {
    enum Ratio: Equatable {
        /// Two camera columns to three output columns: offsets 0, 1, 1; step 2.
        case twoToThree
        /// One camera column to three output columns: offsets 0, 0, 0; step 1.
        case oneToThree

        var step: Int32 {
            switch self {
            case .twoToThree: return 2
            case .oneToThree: return 1
            }
        }

        func offset(_ r: Int) -> Int32 {
            switch self {
            case .twoToThree: return r == 0 ? 0 : 1
            case .oneToThree: return 0
            }
        }
    }

    let ratio: Ratio
    let origin: Int

    /// The pattern `sourceColumn` follows over `active`, if it is one of the two.
    static func find(sourceColumn: [Int32], active: Range<Int>) -> PeriodicStretch? {
        guard active.count >= 3 else { return nil }
        for ratio in [Ratio.twoToThree, .oneToThree] {
            for origin in active.lowerBound..<(active.lowerBound + 3) {
                let candidate = PeriodicStretch(ratio: ratio, origin: origin)
                let base = sourceColumn[origin]
                if active.allSatisfy({ sourceColumn[$0] == base + candidate.relative($0) }) { return candidate }
            }
        }
        return nil
    }

    /// sourceColumn[x] - sourceColumn[origin] under the pattern.
    func relative(_ x: Int) -> Int32 {
        let distance = x - origin
        let k = distance >= 0 ? distance / 3 : -((2 - distance) / 3)
        return ratio.step * Int32(k) + ratio.offset(distance - 3 * k)
    }

    /// How many columns from x to the next period start (0 when x is one).
    @inline(__always)
    func columnsToPeriod(_ x: Int) -> Int {
        let r = (x &- origin) % 3
        return r == 0 ? 0 : (r > 0 ? 3 &- r : -r)
    }
}
