import Frames
import KernelIO

/// Scores a sequence of mattes against truth masks (both .alpha8 at one size), frame by frame:
///  - IoU of the two masks cut at 128 (the matte's 50 % line);
///  - boundary F: a boundary pixel (in the mask, with a 4-neighbour outside it) counts as matched
///    when the other mask has a boundary pixel within `boundaryTolerance` pixels (Chebyshev);
///    F = 2PR / (P + R) of the matched shares of predicted and true boundary pixels;
///  - flicker: mean |alpha(t) - alpha(t-1)|, in alpha levels, over the still parts of the scene:
///    pixels with no truth change between the two frames within `stillRadius` (a moving edge's
///    soft ramp moves with it and is lag's business, not flicker);
///  - lag: per frame from the third on, which of truth(t), truth(t-1), truth(t-2) the matte
///    matches best (IoU), averaged: 0 follows at once, 1 trails a frame.
///
/// For `backdrop eval` and the matte tests; allocates its planes in `init`.
public final class MatteEvaluation {
    public struct Summary: Sendable {
        public var frames = 0
        public var meanIoU = 0.0
        public var minimumIoU = 0.0
        public var meanBoundaryF = 0.0
        public var minimumBoundaryF = 0.0
        /// Alpha levels per pixel per frame over still truth; 0 when there is one frame.
        public var flicker = 0.0
        /// Frames the matte trails the truth by, 0...2, averaged; 0 with fewer than 3 frames.
        public var lagFrames = 0.0
    }

    public let size: FrameSize
    public static let boundaryTolerance = 2
    public static let stillRadius = 4
    public private(set) var ious: [Double] = []
    public private(set) var boundaryFs: [Double] = []
    private var flickerSum = 0.0
    private var flickerPixels = 0
    private var lagSum = 0
    private var lagFrames = 0
    private let previousAlpha: UnsafeMutablePointer<UInt8>
    private let truths: (UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<UInt8>)
    private let edgeA: UnsafeMutablePointer<UInt8>
    private let edgeB: UnsafeMutablePointer<UInt8>
    private let moving: UnsafeMutablePointer<UInt8>
    private let memory: AlignedBuffer

    /// Throws ENOMEM when its six planes (6 bytes per pixel of the recording) cannot be had.
    public init(size: FrameSize) throws(SystemError) {
        self.size = size
        let n = size.pixelCount
        var layout = BufferLayout()
        let previousSlot = layout.reserve(UInt8.self, count: n)
        let truthSlots = (layout.reserve(UInt8.self, count: n), layout.reserve(UInt8.self, count: n))
        let edgeASlot = layout.reserve(UInt8.self, count: n)
        let edgeBSlot = layout.reserve(UInt8.self, count: n)
        let movingSlot = layout.reserve(UInt8.self, count: n)
        memory = try AlignedBuffer(layout: layout)
        previousAlpha = memory.pointer(previousSlot)
        truths = (memory.pointer(truthSlots.0), memory.pointer(truthSlots.1))
        edgeA = memory.pointer(edgeASlot)
        edgeB = memory.pointer(edgeBSlot)
        moving = memory.pointer(movingSlot)
    }

    /// Adds one frame: `alpha` the matte, `truth` 255 on the subject.
    public func add(alpha: ImageView, truth: ImageView) {
        precondition(alpha.size == size && truth.size == size && alpha.format == .alpha8 && truth.format == .alpha8)
        let width = size.width
        let frame = ious.count
        var intersection = 0
        var union = 0
        var lagUnions = (0, 0)
        var lagIntersections = (0, 0)
        if frame >= 1 { markMoving(truth: truth) }
        for y in 0..<size.height {
            let a = alpha.row(y).assumingMemoryBound(to: UInt8.self)
            let t = truth.row(y).assumingMemoryBound(to: UInt8.self)
            let previous = previousAlpha + y * width
            let t1 = truths.0 + y * width
            let t2 = truths.1 + y * width
            let movingRow = moving + y * width
            for x in 0..<width {
                let inA = a[x] >= 128
                let inT = t[x] >= 128
                if inA && inT { intersection += 1 }
                if inA || inT { union += 1 }
                if frame >= 1 && movingRow[x] == 0 {
                    flickerSum += Double(abs(Int(a[x]) - Int(previous[x])))
                    flickerPixels += 1
                }
                if frame >= 2 {
                    let in1 = t1[x] >= 128
                    let in2 = t2[x] >= 128
                    if inA && in1 { lagIntersections.0 += 1 }
                    if inA || in1 { lagUnions.0 += 1 }
                    if inA && in2 { lagIntersections.1 += 1 }
                    if inA || in2 { lagUnions.1 += 1 }
                }
            }
        }
        let iou = union == 0 ? 1 : Double(intersection) / Double(union)
        ious.append(iou)
        if frame >= 2 {
            let iou1 = lagUnions.0 == 0 ? 1 : Double(lagIntersections.0) / Double(lagUnions.0)
            let iou2 = lagUnions.1 == 0 ? 1 : Double(lagIntersections.1) / Double(lagUnions.1)
            lagSum += iou >= iou1 && iou >= iou2 ? 0 : iou1 >= iou2 ? 1 : 2
            lagFrames += 1
        }
        boundaryFs.append(boundaryF(alpha: alpha, truth: truth))
        // Keep this frame for the next: alpha, and truth(t) -> t-1 -> t-2.
        for y in 0..<size.height {
            (previousAlpha + y * width).copyElements(from: alpha.row(y).assumingMemoryBound(to: UInt8.self), count: width)
            (truths.1 + y * width).copyElements(from: truths.0 + y * width, count: width)
            (truths.0 + y * width).copyElements(from: truth.row(y).assumingMemoryBound(to: UInt8.self), count: width)
        }
    }

    public var summary: Summary {
        var s = Summary()
        s.frames = ious.count
        guard !ious.isEmpty else { return s }
        s.meanIoU = ious.reduce(0, +) / Double(ious.count)
        s.minimumIoU = ious.min() ?? 0
        s.meanBoundaryF = boundaryFs.reduce(0, +) / Double(boundaryFs.count)
        s.minimumBoundaryF = boundaryFs.min() ?? 0
        s.flicker = flickerPixels == 0 ? 0 : flickerSum / Double(flickerPixels)
        s.lagFrames = lagFrames == 0 ? 0 : Double(lagSum) / Double(lagFrames)
        return s
    }

    /// `moving`: 1 within `stillRadius` of a pixel whose truth changed since the last frame.
    private func markMoving(truth: ImageView) {
        let width = size.width
        let height = size.height
        let r = Self.stillRadius
        moving.update(repeating: 0, count: size.pixelCount)
        for y in 0..<height {
            let t = truth.row(y).assumingMemoryBound(to: UInt8.self)
            let t1 = truths.0 + y * width
            for x in 0..<width where (t[x] >= 128) != (t1[x] >= 128) {
                for yy in max(0, y - r)...min(height - 1, y + r) {
                    (moving + yy * width + max(0, x - r)).update(repeating: 1, count: min(width - 1, x + r) - max(0, x - r) + 1)
                }
            }
        }
    }

    private func boundaryF(alpha: ImageView, truth: ImageView) -> Double {
        let a = mark(boundaryOf: alpha, into: edgeA)
        let t = mark(boundaryOf: truth, into: edgeB)
        if a == 0 && t == 0 { return 1 }
        if a == 0 || t == 0 { return 0 }
        let precision = Double(matched(edgeA, against: edgeB)) / Double(a)
        let recall = Double(matched(edgeB, against: edgeA)) / Double(t)
        return precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall)
    }

    /// 1 where the mask (>= 128) has a 4-neighbour outside it (the frame's border counts as
    /// inside, so a subject cut by the frame has no boundary there); returns the count.
    private func mark(boundaryOf view: ImageView, into edges: UnsafeMutablePointer<UInt8>) -> Int {
        let width = size.width
        let height = size.height
        var count = 0
        for y in 0..<height {
            let row = view.row(y).assumingMemoryBound(to: UInt8.self)
            let up = view.row(max(0, y - 1)).assumingMemoryBound(to: UInt8.self)
            let down = view.row(min(height - 1, y + 1)).assumingMemoryBound(to: UInt8.self)
            for x in 0..<width {
                var edge: UInt8 = 0
                if row[x] >= 128 {
                    let left = row[max(0, x - 1)]
                    let right = row[min(width - 1, x + 1)]
                    if left < 128 || right < 128 || up[x] < 128 || down[x] < 128 { edge = 1 }
                }
                edges[y * width + x] = edge
                count += Int(edge)
            }
        }
        return count
    }

    private func matched(_ edges: UnsafeMutablePointer<UInt8>, against other: UnsafeMutablePointer<UInt8>) -> Int {
        let width = size.width
        let height = size.height
        let r = Self.boundaryTolerance
        var count = 0
        for y in 0..<height {
            for x in 0..<width where edges[y * width + x] != 0 {
                search: for yy in max(0, y - r)...min(height - 1, y + r) {
                    for xx in max(0, x - r)...min(width - 1, x + r) where other[yy * width + xx] != 0 {
                        count += 1
                        break search
                    }
                }
            }
        }
        return count
    }
}
