import Frames

/// Scales a decoded RGB24 image to the output size once, at load time, into XRGB8888.
/// Separable filter: area averaging when shrinking (every source pixel contributes by how much of
/// it falls under the output pixel, so large photos do not alias), bilinear when enlarging.
/// fill crops the overflow evenly from both sides, fit letterboxes with black, stretch distorts.
/// Allocates working memory; never called on the frame path.
public enum BackdropScaler {
    public static func scale(_ source: ImageView, into output: ImageView, fit: FitMode) {
        precondition(source.format == .rgb24, "the scaler reads RGB24")
        precondition(output.format == .xrgb8888, "the scaler writes XRGB8888")
        let sourceWidth = Double(source.size.width), sourceHeight = Double(source.size.height)
        let outputWidth = output.size.width, outputHeight = output.size.height
        // Source window (x, y, width, height) and the output rectangle it is drawn into.
        var window = (x: 0.0, y: 0.0, width: sourceWidth, height: sourceHeight)
        var target = (x: 0, y: 0, width: outputWidth, height: outputHeight)
        switch fit {
        case .stretch:
            break
        case .fill:
            let factor = max(Double(outputWidth) / sourceWidth, Double(outputHeight) / sourceHeight)
            window.width = Double(outputWidth) / factor
            window.height = Double(outputHeight) / factor
            window.x = (sourceWidth - window.width) / 2
            window.y = (sourceHeight - window.height) / 2
        case .fit:
            let factor = min(Double(outputWidth) / sourceWidth, Double(outputHeight) / sourceHeight)
            target.width = max(1, min(outputWidth, Int((sourceWidth * factor).rounded())))
            target.height = max(1, min(outputHeight, Int((sourceHeight * factor).rounded())))
            target.x = (outputWidth - target.width) / 2
            target.y = (outputHeight - target.height) / 2
        }
        for y in 0..<outputHeight {
            let row = output.row(y).bindMemory(to: UInt32.self, capacity: outputWidth)
            row.update(repeating: 0xFF00_0000, count: outputWidth)
        }
        let columns = FilterTaps(outputCount: target.width, start: window.x, length: window.width,
                                 sourceCount: source.size.width)
        let rows = FilterTaps(outputCount: target.height, start: window.y, length: window.height,
                              sourceCount: source.size.height)
        var accumulated = [Float](repeating: 0, count: source.size.width * 3)
        for outputY in 0..<target.height {
            for index in accumulated.indices { accumulated[index] = 0 }
            for tap in rows.range(outputY) {
                let sourceRow = source.row(rows.indices[tap]).assumingMemoryBound(to: UInt8.self)
                let weight = rows.weights[tap]
                for index in 0..<(source.size.width * 3) { accumulated[index] += weight * Float(sourceRow[index]) }
            }
            let outputRow = output.row(target.y + outputY).bindMemory(to: UInt32.self, capacity: outputWidth)
            for outputX in 0..<target.width {
                var red: Float = 0, green: Float = 0, blue: Float = 0
                for tap in columns.range(outputX) {
                    let base = columns.indices[tap] * 3
                    let weight = columns.weights[tap]
                    red += weight * accumulated[base]
                    green += weight * accumulated[base + 1]
                    blue += weight * accumulated[base + 2]
                }
                outputRow[target.x + outputX] = 0xFF00_0000 | channel(red) << 16 | channel(green) << 8 | channel(blue)
            }
        }
    }

    private static func channel(_ value: Float) -> UInt32 {
        UInt32(min(max(value + 0.5, 0), 255))
    }
}
