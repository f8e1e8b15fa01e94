@_spi(Testing) import Frames
import Matte

/// A hand-drawn depth frame (rectangles of millimetres, or of raw units) and the alpha the
/// engine makes of it, for tests that need exact geometry rather than a scene.
final class DepthCanvas {
    let depth: PixelBuffer
    let alpha: PixelBuffer

    init(depthSize: FrameSize, alphaSize: FrameSize? = nil) {
        depth = PixelBuffer(format: .z16, size: depthSize)
        alpha = PixelBuffer(format: .alpha8, size: alphaSize ?? depthSize)
    }

    func fill(_ value: UInt16) {
        fill(x: 0..<depth.size.width, y: 0..<depth.size.height, value)
    }

    func fill(x: Range<Int>, y: Range<Int>, _ value: UInt16) {
        for row in y {
            let line = depth.row(row).assumingMemoryBound(to: UInt16.self)
            for column in x { line[column] = value }
        }
    }

    func set(_ x: Int, _ y: Int, _ value: UInt16) {
        depth.row(y).assumingMemoryBound(to: UInt16.self)[x] = value
    }

    func process(_ engine: MatteEngine, unitMM: Float = 1) {
        engine.process(depth: depth.view, unitMM: unitMM, into: alpha.view)
    }

    func alphaAt(_ x: Int, _ y: Int) -> UInt8 {
        alpha.row(y).assumingMemoryBound(to: UInt8.self)[x]
    }

    /// Pixels with alpha >= 128 inside the given rectangle (the whole alpha by default).
    func covered(x: Range<Int>? = nil, y: Range<Int>? = nil) -> Int {
        var count = 0
        for row in y ?? 0..<alpha.size.height {
            let line = alpha.row(row).assumingMemoryBound(to: UInt8.self)
            for column in x ?? 0..<alpha.size.width where line[column] >= 128 { count += 1 }
        }
        return count
    }

    /// Mean x of the covered pixels.
    func coveredCentreX() -> Double {
        var sum = 0
        var count = 0
        for row in 0..<alpha.size.height {
            let line = alpha.row(row).assumingMemoryBound(to: UInt8.self)
            for column in 0..<alpha.size.width where line[column] >= 128 {
                sum += column
                count += 1
            }
        }
        return count == 0 ? -1 : Double(sum) / Double(count)
    }
}
