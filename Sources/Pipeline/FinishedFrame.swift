import Frames

/// One frame as compute left it, lent to the I/O thread by `PipelineRunner.whenFrameFinished`
/// (a photo's frame and its layers): the camera's colour and depth, the matte it was composed
/// with and the composed output. Views only; valid inside that call.
public struct FinishedFrame {
    public let color: ImageView
    public let depth: ImageView
    public let depthUnitMM: Float
    public let alpha: ImageView
    public let output: ImageView
    public let stamp: FrameStamp
}
