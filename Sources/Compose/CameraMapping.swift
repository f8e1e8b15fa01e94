import Frames

/// Where each output pixel takes its camera pixel from (nearest sample), for one fit mode.
/// Computed once at start-up; the compositor reads it on every frame.
///
/// fill: the camera is scaled to cover the output and centred, the overflow cropped.
/// fit: the camera is scaled to lie inside the output and centred; outside that rectangle
///      (`activeColumns` x `activeRows`) there is no camera pixel.
/// stretch: each axis scaled independently.
/// Nearest sample by pixel centre: output pixel x reads the source pixel containing
/// (x + 0.5) * sourceCount / targetCount, so the corner pixels map to corner pixels.
public struct CameraMapping: Equatable, Sendable {
    /// Camera column for each output column; -1 outside `activeColumns`.
    public let sourceColumn: [Int32]
    /// Camera row for each output row; -1 outside `activeRows`.
    public let sourceRow: [Int32]
    public let activeColumns: Range<Int>
    public let activeRows: Range<Int>
    /// The camera's window drawn over `activeColumns` x `activeRows` (fill crops it): with the
    /// active rectangle, what a display plane must be told to scale the camera the same way.
    public let sourceColumns: Range<Int>
    public let sourceRows: Range<Int>
    /// True when output column x reads camera column x everywhere (the fast path).
    public let columnsAreIdentity: Bool

    public init(camera: FrameSize, output: FrameSize, fit: FitMode) {
        // The camera rectangle (source window) and the output rectangle it is drawn into.
        var sourceX = 0, sourceY = 0, sourceWidth = camera.width, sourceHeight = camera.height
        var targetX = 0, targetY = 0, targetWidth = output.width, targetHeight = output.height
        let cameraWider = camera.width * output.height > camera.height * output.width
        switch fit {
        case .stretch:
            break
        case .fill:
            if cameraWider {
                sourceWidth = max(1, (camera.height * output.width + output.height / 2) / output.height)
                sourceX = (camera.width - sourceWidth) / 2
            } else {
                sourceHeight = max(1, (camera.width * output.height + output.width / 2) / output.width)
                sourceY = (camera.height - sourceHeight) / 2
            }
        case .fit:
            if cameraWider {
                targetHeight = max(1, (output.width * camera.height + camera.width / 2) / camera.width)
                targetY = (output.height - targetHeight) / 2
            } else {
                targetWidth = max(1, (output.height * camera.width + camera.height / 2) / camera.height)
                targetX = (output.width - targetWidth) / 2
            }
        }
        sourceColumn = Self.axis(outputCount: output.width, target: targetX, targetCount: targetWidth,
                                 source: sourceX, sourceCount: sourceWidth)
        sourceRow = Self.axis(outputCount: output.height, target: targetY, targetCount: targetHeight,
                              source: sourceY, sourceCount: sourceHeight)
        activeColumns = targetX..<(targetX + targetWidth)
        sourceColumns = sourceX..<(sourceX + sourceWidth)
        sourceRows = sourceY..<(sourceY + sourceHeight)
        activeRows = targetY..<(targetY + targetHeight)
        var identity = activeColumns == 0..<output.width
        for x in 0..<output.width where sourceColumn[x] != Int32(x) { identity = false }
        columnsAreIdentity = identity
    }

    private static func axis(outputCount: Int, target: Int, targetCount: Int,
                             source: Int, sourceCount: Int) -> [Int32] {
        var table = [Int32](repeating: -1, count: outputCount)
        for index in 0..<targetCount {
            // floor(((index + 0.5) * sourceCount / targetCount)) in integers.
            let offset = ((2 * index + 1) * sourceCount) / (2 * targetCount)
            table[target + index] = Int32(source + min(offset, sourceCount - 1))
        }
        return table
    }
}
