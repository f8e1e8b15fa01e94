import Frames

/// One frame handed from the I/O thread to compute (through a `HandOffSlot`). Everything compute
/// touches is in here: views of the two camera slots and of the output slot (the I/O thread took
/// it from its ScanoutQueue, so nothing shows it), and the generation to apply first. Compute
/// never reads the source or the sink themselves.
struct FrameJob {
    var colorSlot: Int
    var depthSlot: Int
    var outputSlot: Int
    var color: ImageView
    var depth: ImageView
    var output: ImageView
    var depthUnitMM: Float
    var stamp: FrameStamp
    var generation: FrameGeneration
}

/// What compute hands back once the camera slots are no longer read: which slots to release and
/// present, and how long each stage took (the I/O thread records the statistics).
struct FrameResult {
    var colorSlot: Int
    var depthSlot: Int
    var outputSlot: Int
    var stamp: FrameStamp
    var matteNanoseconds: UInt64
    var composeNanoseconds: UInt64
}
