/// For one axis: which source samples each output sample reads and with what weight (weights of
/// one output sample sum to 1). Built once per scaling; see `BackdropScaler`.
struct FilterTaps {
    private(set) var indices: [Int] = []
    private(set) var weights: [Float] = []
    private var starts: [Int] = []

    /// Maps `outputCount` samples onto the source interval [start, start + length) of an axis
    /// with `sourceCount` samples.
    init(outputCount: Int, start: Double, length: Double, sourceCount: Int) {
        let step = length / Double(outputCount)
        starts.reserveCapacity(outputCount + 1)
        for index in 0..<outputCount {
            starts.append(indices.count)
            if step > 1 {
                // Shrinking: area coverage of [low, high) over source pixels [k, k + 1).
                let low = start + Double(index) * step
                let high = low + step
                var k = Int(low.rounded(.down))
                while Double(k) < high {
                    let overlap = min(high, Double(k + 1)) - max(low, Double(k))
                    if overlap > 0 { append(k, overlap / step, sourceCount) }
                    k += 1
                }
            } else {
                // Enlarging: bilinear between the two nearest source centres.
                let centre = start + (Double(index) + 0.5) * step - 0.5
                let left = centre.rounded(.down)
                let fraction = centre - left
                append(Int(left), 1 - fraction, sourceCount)
                append(Int(left) + 1, fraction, sourceCount)
            }
        }
        starts.append(indices.count)
    }

    func range(_ output: Int) -> Range<Int> { starts[output]..<starts[output + 1] }

    private mutating func append(_ source: Int, _ weight: Double, _ sourceCount: Int) {
        indices.append(min(max(source, 0), sourceCount - 1))
        weights.append(Float(weight))
    }
}
