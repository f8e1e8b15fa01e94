/// What AlphaFeather computes, everywhere and the long way: the specification its run form is
/// held to (MatteTests' AlphaFeatherReferenceTests). A nearest-neighbour upscale (work pixel
/// floor((2x + 1) * work / (2 * alpha)) of each output column and row), then a separable box of
/// 2r + 1 taps, horizontal first and then vertical over the upscaled rows, reads past an end
/// repeating the edge pixel, each pass's sum scaled by ceil(65536 / (2r + 1)) >> 16.
public enum FeatherReference {
    public static func feather(source: [UInt8], workWidth: Int, workHeight: Int, alphaWidth: Int, alphaHeight: Int,
                               radius: Int) -> [UInt8] {
        let columns = (0..<alphaWidth).map { min(workWidth - 1, (2 * $0 + 1) * workWidth / (2 * alphaWidth)) }
        let rows = (0..<alphaHeight).map { min(workHeight - 1, (2 * $0 + 1) * workHeight / (2 * alphaHeight)) }
        if radius == 0 {
            var out = [UInt8](repeating: 0, count: alphaWidth * alphaHeight)
            for y in 0..<alphaHeight {
                for x in 0..<alphaWidth { out[y * alphaWidth + x] = source[rows[y] * workWidth + columns[x]] }
            }
            return out
        }
        let taps = 2 * radius + 1
        let scale = (65536 + taps - 1) / taps
        func clamped(_ i: Int, _ count: Int) -> Int { min(count - 1, max(0, i)) }
        var horizontal = [Int](repeating: 0, count: workHeight * alphaWidth)
        for wy in 0..<workHeight {
            for x in 0..<alphaWidth {
                var sum = 0
                for k in (x - radius)...(x + radius) { sum += Int(source[wy * workWidth + columns[clamped(k, alphaWidth)]]) }
                horizontal[wy * alphaWidth + x] = (sum * scale) >> 16
            }
        }
        var out = [UInt8](repeating: 0, count: alphaWidth * alphaHeight)
        for y in 0..<alphaHeight {
            for x in 0..<alphaWidth {
                var sum = 0
                for k in (y - radius)...(y + radius) { sum += horizontal[rows[clamped(k, alphaHeight)] * alphaWidth + x] }
                out[y * alphaWidth + x] = UInt8((sum * scale) >> 16)
            }
        }
        return out
    }
}
