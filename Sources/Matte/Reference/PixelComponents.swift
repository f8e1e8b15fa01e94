/// Connected components of a width x height picture, 4-connected, found by flood fill: the
/// plain form the references build on. `same(a, b)` says whether two touching pixels (packed
/// indices) belong together. Components are numbered in raster order of their first pixel.
public struct PixelComponents {
    public let width: Int
    public let height: Int
    /// Each pixel's component.
    public private(set) var id: [Int]
    public private(set) var count = 0

    public init(width: Int, height: Int, same: (Int, Int) -> Bool) {
        self.width = width
        self.height = height
        id = [Int](repeating: -1, count: width * height)
        var stack: [Int] = []
        for seed in 0..<(width * height) where id[seed] < 0 {
            id[seed] = count
            stack.append(seed)
            while let p = stack.popLast() {
                let x = p % width
                let y = p / width
                for (nx, ny) in [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)]
                    where nx >= 0 && nx < width && ny >= 0 && ny < height {
                    let n = ny * width + nx
                    if id[n] < 0 && same(p, n) {
                        id[n] = count
                        stack.append(n)
                    }
                }
            }
            count += 1
        }
    }
}
