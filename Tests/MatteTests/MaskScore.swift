import Frames

/// Intersection over union of two .alpha8 masks, each thresholded at 128 (the matte's 50 % line).
struct MaskScore {
    var intersection = 0
    var union = 0

    init(_ a: ImageView, _ b: ImageView) {
        precondition(a.size == b.size)
        for y in 0..<a.size.height {
            let ra = a.row(y).assumingMemoryBound(to: UInt8.self)
            let rb = b.row(y).assumingMemoryBound(to: UInt8.self)
            for x in 0..<a.size.width {
                let inA = ra[x] >= 128
                let inB = rb[x] >= 128
                if inA && inB { intersection += 1 }
                if inA || inB { union += 1 }
            }
        }
    }

    var iou: Double { union == 0 ? 1 : Double(intersection) / Double(union) }
}
