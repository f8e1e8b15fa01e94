import Compose
import Frames
import KernelIO
import Matte
import Synchronization

/// The compute stage: depth → matte → compose over the backdrop, split into bands of rows across
/// the worker threads. Owns the alpha plane; everything is allocated here, at start-up.
public final class FrameProcessor {
    public let colorFormat: PixelFormat
    public let colorSize: FrameSize
    public let outputSize: FrameSize
    private let matte: MatteEngine
    private let compositor: Compositor
    private let alpha: PixelBuffer
    private let bands: BandWorkers
    /// Set from the controls thread; read once per frame.
    private let showMatte = Atomic<Bool>(false)
    /// True when the display blends: compose writes only the premultiplied camera layer and the
    /// backdrop stays on its own plane.
    private var writesLayer = false

    // The frame being composed, set before the bands start and read by every band.
    private var camera: ImageView
    private var background: ImageView
    private var output: ImageView

    public init(colorFormat: PixelFormat, colorSize: FrameSize, depthSize: FrameSize, outputSize: FrameSize,
                fit: FitMode, matte parameters: MatteParameters, projection: DepthProjection?,
                helperCPUMasks: [UInt64], realtimePriority: Int32) throws(SystemError) {
        self.colorFormat = colorFormat
        self.colorSize = colorSize
        self.outputSize = outputSize
        matte = MatteEngine(parameters: parameters, depthSize: depthSize, alphaSize: colorSize, projection: projection)
        compositor = Compositor(cameraFormat: colorFormat, cameraSize: colorSize, outputSize: outputSize, fit: fit)
        alpha = PixelBuffer(format: .alpha8, size: colorSize)
        bands = try BandWorkers(helperCPUMasks: helperCPUMasks, realtimePriority: realtimePriority)
        let placeholder = alpha.view
        camera = placeholder
        background = placeholder
        output = placeholder
        // Embedded Swift has no `unowned`; the bands stop before self goes (stop()).
        let unretained = Unmanaged.passUnretained(self)
        bands.setWork { band in unretained.takeUnretainedValue().composeBand(band) }
    }

    public var bandCount: Int { bands.bandCount }
    public var refusedRealtime: Bool { bands.refusedRealtime }
    public var alphaView: ImageView { alpha.view }
    public var subjectDistanceMM: Int? { matte.subjectDistanceMM }

    /// Switches between a finished frame (CPU blend) and a premultiplied ARGB camera layer for a
    /// display that blends it over the backdrop plane. Call before the first frame.
    public func setWritesLayer(_ on: Bool) { writesLayer = on }

    public func setMatteView(_ on: Bool) { showMatte.store(on, ordering: .relaxed) }
    public var matteViewShown: Bool { showMatte.load(ordering: .relaxed) }

    public func update(matte parameters: MatteParameters) { matte.update(parameters: parameters) }

    /// Builds the matte for `depth` (single thread: speck removal and the subject search need
    /// the whole frame).
    public func buildMatte(depth: ImageView, unitMM: Float) {
        matte.process(depth: depth, unitMM: unitMM, into: alpha.view)
    }

    /// Composes the current matte and `camera` over `background` into `output`, in bands.
    public func compose(camera: ImageView, background: ImageView, into output: ImageView) {
        self.camera = camera
        self.background = background
        self.output = output
        bands.runBands()
    }

    private func composeBand(_ band: Int) {
        let rows = bands.rows(ofBand: band, total: outputSize.height)
        if showMatte.load(ordering: .relaxed) {
            compositor.composeMatteView(alpha: alpha.view, into: output, rows: rows)
        } else if writesLayer {
            compositor.writePremultipliedLayer(camera: camera, alpha: alpha.view, into: output, rows: rows)
        } else {
            compositor.compose(camera: camera, alpha: alpha.view, background: background, into: output, rows: rows)
        }
    }

    public func stop() { bands.stop() }
}
