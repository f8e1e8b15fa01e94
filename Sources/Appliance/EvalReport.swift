import Runtime
import Frames
import ImageCodec
import KernelIO

/// `eval --report DIR`: pictures of where the matte is wrong. For the worst frames by IoU, the
/// colour frame dimmed with the pixels the matte missed (truth on, matte off) in red and the
/// pixels it added (matte on, truth off) in yellow, as DIR/worst-N-NNNNNN.png; and the IoU of every
/// frame as a plot, DIR/iou.png (a column per frame, 0 at the bottom, 1 at the top, grid lines
/// every 0.25, the worst frames' marks in red). PNG through the project's own encoder.
///
/// The matte is temporal, so a frame cannot be matted again alone: the overlays of the worst
/// frames so far are kept while eval runs, in buffers made before the first frame.
final class EvalReport {
    static let worstCount = 3
    static let plotHeight = 200

    let directory: String
    /// The slots' overlays stacked in one buffer (a buffer has one owner and cannot sit in an array).
    private let overlays: PixelBuffer
    private let colourSize: FrameSize
    private var worst: [(iou: Double, name: String, slot: Int)] = []

    init(directory: String, colourSize: FrameSize) throws(CommandFailure) {
        self.directory = directory
        self.colourSize = colourSize
        overlays = try FrameMemory.buffer(.rgb24, FrameSize(width: colourSize.width, height: colourSize.height * Self.worstCount))
    }

    private func overlay(_ slot: Int) -> ImageView {
        let whole = overlays.view
        return ImageView(format: .rgb24, size: colourSize, bytesPerRow: whole.bytesPerRow,
                         base: whole.row(slot * colourSize.height))
    }

    /// Keeps this frame's overlay when it is among the worst so far. `alpha` is the matte (>= 128
    /// counts as kept), `truth` the mask (>= 128 on the subject), `colour` RGB24; all colour-sized.
    func consider(iou: Double, name: String, colour: ImageView, alpha: ImageView, truth: ImageView) {
        let slot: Int
        if worst.count < Self.worstCount {
            slot = worst.count
        } else {
            guard let best = worst.indices.max(by: { worst[$0].iou < worst[$1].iou }), iou < worst[best].iou else { return }
            slot = worst[best].slot
            worst.remove(at: best)
        }
        worst.append((iou, name, slot))
        let target = overlay(slot)
        for y in 0..<colour.size.height {
            let from = colour.row(y).bindMemory(to: UInt8.self, capacity: 3 * colour.size.width)
            let kept = alpha.row(y).bindMemory(to: UInt8.self, capacity: alpha.size.width)
            let subject = truth.row(y).bindMemory(to: UInt8.self, capacity: truth.size.width)
            let to = target.row(y).bindMemory(to: UInt8.self, capacity: 3 * colour.size.width)
            for x in 0..<colour.size.width {
                let inMatte = kept[x] >= 128, inTruth = subject[x] >= 128
                if inTruth && !inMatte {
                    to[3 * x] = 255; to[3 * x + 1] = 0; to[3 * x + 2] = 0
                } else if inMatte && !inTruth {
                    to[3 * x] = 255; to[3 * x + 1] = 220; to[3 * x + 2] = 0
                } else {
                    // Dimmed, the subject less so, so the errors stand out and the scene is still readable.
                    let shift: UInt8 = inTruth ? 1 : 2
                    to[3 * x] = from[3 * x] >> shift; to[3 * x + 1] = from[3 * x + 1] >> shift
                    to[3 * x + 2] = from[3 * x + 2] >> shift
                }
            }
        }
    }

    /// Writes the overlays (worst first) and the plot; returns the files written.
    func write(ious: [Double]) throws(CommandFailure) -> [String] {
        var written: [String] = []
        // Columns at least 600 pixels in all, so a short recording is not a sliver.
        let column = max(1, 600 / max(1, ious.count))
        let plot = try FrameMemory.buffer(.rgb24, FrameSize(width: max(1, ious.count) * column, height: Self.plotHeight))
        do throws(ImageError) {
            for (rank, entry) in worst.sorted(by: { $0.iou < $1.iou }).enumerated() {
                let path = directory + "/worst-\(rank + 1)-" + entry.name
                try PNGEncoder.write(overlay(entry.slot), to: path)
                written.append(path)
            }
            drawPlot(ious, column: column, into: plot.view)
            let path = directory + "/iou.png"
            try PNGEncoder.write(plot.view, to: path)
            written.append(path)
        } catch {
            throw .runtime("cannot write the report into \(directory): \(error.message)")
        }
        return written
    }

    private func drawPlot(_ ious: [Double], column: Int, into view: ImageView) {
        let height = view.size.height
        let worstIoUs = worst.map { $0.iou }
        for x in 0..<view.size.width {
            let frame = x / column
            let iou = frame < ious.count ? min(1, max(0, ious[frame])) : 0
            let top = height - 1 - Int(iou * Double(height - 1) + 0.5)
            let marked = frame < ious.count && worstIoUs.contains(ious[frame])
            for y in 0..<height {
                let pixel = view.row(y).bindMemory(to: UInt8.self, capacity: 3 * view.size.width) + 3 * x
                let grid = y % (height / 4) == 0 || y == height - 1
                var rgb: (UInt8, UInt8, UInt8) = grid ? (70, 70, 70) : (24, 24, 24)
                if y >= top { rgb = marked ? (220, 40, 40) : (40, 150, 70) }
                if y == top { rgb = marked ? (255, 90, 90) : (120, 230, 140) }
                pixel[0] = rgb.0; pixel[1] = rgb.1; pixel[2] = rgb.2
            }
        }
    }
}
