import Frames
import Looks
import Matte

/// The settings and backdrop one frame is computed with. The I/O thread makes a new generation
/// (SIGHUP, a backdrop switch, the matte view, a new backdrop set) with `PipelineRunner.publish`
/// and it rides to compute inside the next job (`FrameJob`): compute applies it at that frame
/// boundary, so a frame never sees half of a change and a reload never waits for compute.
/// Plain values only (the backdrop is a view whose library the I/O thread keeps alive for the
/// whole run), so copying one per frame allocates nothing.
public struct FrameGeneration {
    /// Bumped on every publish; compute re-applies only when it changes.
    public internal(set) var number: UInt64 = 0
    public var matte: MatteParameters
    public var backdrop: ImageView
    /// The matte as grey instead of the composite (thresholds being set).
    public var showMatte = false
    /// The camera as it is, unmatted, over the backdrop (the camera view, for aiming the camera).
    /// Where the sink shows camera buffers directly the runner skips compute for these frames;
    /// otherwise compute composes the camera with an opaque matte.
    public var showCamera = false
    /// The look on the people's colours (folded at load time, shared, immutable), nil for none.
    /// A class reference: copying the generation retains it, allocates nothing. A look switch is
    /// a new generation like a backdrop switch; the backdrop's look is in `backdrop` already.
    public var peopleLook: ColourLookup?

    public init(matte: MatteParameters, backdrop: ImageView) {
        self.matte = matte
        self.backdrop = backdrop
    }
}
