import Compose
import Frames
import KernelIO
import Looks
import Matte

/// The compute stage: depth → matte → compose over the backdrop, split into bands of rows across
/// the worker threads. Owns the alpha plane; everything is allocated here, at start-up.
/// Threading: after `init` and the set-up calls, only the compute thread calls it (the runner's
/// job carries everything a frame needs); settings change through `apply` at a frame boundary.
public final class FrameProcessor {
    public enum OutputMode: Equatable {
        /// A finished XRGB8888 frame (the CPU blends over the backdrop).
        case frame
        /// An ARGB8888 camera layer with the matte as alpha, colour multiplied by alpha or not.
        case layer(premultiplied: Bool)
        /// The same layer at the camera's size, for a display plane that scales it (the output
        /// buffers are `colorSize`; the message is laid out at the output's size and drawn so
        /// that the scaled layer shows it there, see `MessageLayer(placement:)`).
        case cameraLayer(premultiplied: Bool)
    }

    public let colorFormat: PixelFormat
    public let colorSize: FrameSize
    public let outputSize: FrameSize
    private let matte: MatteEngine
    private let compositor: Compositor
    private let alpha: PixelBuffer
    /// The base of the frame the matte decontaminated this frame (MatteEngine.decontaminate);
    /// nil when it had none. Compose lays the rim patch into its own copy of each camera row it
    /// reads from that frame, never into the camera's buffer: a v4l2loopback camera (the e2e
    /// board's) shares its buffers with the producer, which can write the next frame into the
    /// buffer compute holds, so a patch laid in there was overwritten before the bands read it
    /// (the e2e photo showed the raw rim); and the captured frame stays raw (photo layers,
    /// recordings). Nor is the frame copied whole: the band's row copy stays in the first-level
    /// cache. Compute thread only.
    private var cleanSource: UnsafeMutableRawPointer?
    /// The rim patch for the frame being composed (set with `camera`, read by every band).
    private var cameraPatch: PixelPatch?
    private let bands: BandWorkers
    /// One per band, so concurrent bands never share row buffers.
    private let scratch: [ComposeScratch]
    /// Compute thread only (set by `apply`).
    private var showMatte = false
    /// Compute thread only (set by `apply`): the camera view, composed with an opaque matte.
    private var showCamera = false
    /// The people's look (see `FrameGeneration.peopleLook`): set by `apply`, or before the first
    /// frame by an offline command. Compute thread only; every band reads it.
    public var peopleLook: ColourLookup?
    /// Set before the first frame: a finished frame, or only the camera layer for a display that
    /// blends it over the backdrop plane, straight or premultiplied as the plane's blend mode says.
    private var outputMode = OutputMode.frame
    /// The on-screen message: the I/O thread publishes into it, compute takes it once per frame
    /// (the slot's contract: one reader, at the frame boundary, then every band reads the view).
    public let messages = MessageSlot()
    private let messageLayer: MessageLayer
    /// `.cameraLayer` only, made by `setOutputMode` (start-up): the identity mapping's compositor
    /// (conversion and alpha, no gather) and the message layout at the camera's size.
    private var cameraLayerCompositor: Compositor? = nil
    private var cameraMessageLayer: MessageLayer? = nil
    private var message = MessageView(style: .caption, bytes: UnsafeRawBufferPointer(start: nil, count: 0))

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
        matte = try MatteEngine(parameters: parameters, depthSize: depthSize, alphaSize: colorSize, projection: projection)
        compositor = Compositor(cameraFormat: colorFormat, cameraSize: colorSize, outputSize: outputSize, fit: fit)
        alpha = try PixelBuffer(allocating: .alpha8, size: colorSize)
        messageLayer = MessageLayer(outputSize: outputSize)
        bands = try BandWorkers(helperCPUMasks: helperCPUMasks, realtimePriority: realtimePriority)
        var scratch: [ComposeScratch] = []
        for _ in 0..<bands.bandCount { scratch.append(compositor.makeScratch()) }
        self.scratch = scratch
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

    /// Per-stage timing of the matte (`backdrop bench`); nil, the default, times nothing.
    public var matteStageTimes: MatteStageTimes? {
        get { matte.stageTimes }
        set { matte.stageTimes = newValue }
    }

    /// What compose writes. Call before the first frame (before the compute thread starts).
    public func setOutputMode(_ mode: OutputMode) {
        outputMode = mode
        if case .cameraLayer = mode, cameraLayerCompositor == nil {
            cameraLayerCompositor = Compositor(cameraFormat: colorFormat, cameraSize: colorSize, outputSize: colorSize,
                                               fit: .stretch)
            cameraMessageLayer = MessageLayer(placement: placement)
        }
    }

    /// The size of what `compose` writes: the camera's in `.cameraLayer`, else the output's.
    public var composedSize: FrameSize {
        if case .cameraLayer = outputMode { return colorSize }
        return outputSize
    }

    /// How the compositor maps the camera onto the output (for a display plane's rectangles).
    public var mapping: CameraMapping { compositor.mapping }

    /// Where a display that scales the camera-sized layer shows it (for photos and messages).
    public var placement: LayerPlacement {
        LayerPlacement(layer: colorSize, output: outputSize, fit: compositor.fit)
    }

    /// Takes a new generation's settings (compute thread, between frames).
    public func apply(_ generation: FrameGeneration) {
        matte.update(parameters: generation.matte)
        showMatte = generation.showMatte
        showCamera = generation.showCamera
        peopleLook = generation.peopleLook
    }

    /// Builds the matte for `depth` (single thread: speck removal and the subject search need
    /// the whole frame). `colour`, the camera frame the depth goes with, lets colour decide the
    /// edges and the sensor's shadow strips; nil builds it from depth alone.
    public func buildMatte(depth: ImageView, unitMM: Float, colour: ImageView? = nil) {
        cleanSource = nil
        if showCamera {
            // The camera view shows every camera pixel: no matte to build, and the rim's colour is
            // the camera's own.
            alpha.view.base.initializeMemory(as: UInt8.self, repeating: 255, count: alpha.view.bytesPerRow * colorSize.height)
            return
        }
        matte.process(depth: depth, unitMM: unitMM, colour: colour, into: alpha.view)
        if let colour, colour.format == colorFormat, colour.size == colorSize {
            matte.decontaminate(colour: colour, alpha: alpha.view)
            cleanSource = colour.base
        }
    }

    /// Composes the current matte and `camera` over `background` into `output`, in bands, with
    /// the message published last drawn over it. When `camera` is the frame the matte was just
    /// built from, its rim is blended with the decontaminated colour.
    public func compose(camera: ImageView, background: ImageView, into output: ImageView) {
        message = messages.take()
        self.camera = camera
        cameraPatch = camera.base == cleanSource ? matte.rimPatch : nil
        self.background = background
        self.output = output
        bands.runBands()
    }

    private func composeBand(_ band: Int) {
        switch outputMode {
        case .frame:
            let rows = bands.rows(ofBand: band, total: outputSize.height)
            if showMatte { compositor.composeMatteView(alpha: alpha.view, into: output, rows: rows) } else {
                compositor.compose(camera: camera, alpha: alpha.view, background: background, into: output, rows: rows,
                                   scratch: scratch[band], patch: cameraPatch, look: peopleLook)
            }
            messageLayer.draw(message, into: output, rows: rows)
        case .layer(let premultiplied):
            let rows = bands.rows(ofBand: band, total: outputSize.height)
            if showMatte { compositor.composeMatteView(alpha: alpha.view, into: output, rows: rows) } else {
                compositor.writeLayer(camera: camera, alpha: alpha.view, into: output, rows: rows, premultiplied: premultiplied,
                                      scratch: scratch[band], patch: cameraPatch, look: peopleLook)
            }
            messageLayer.draw(message, into: output, rows: rows)
        case .cameraLayer(let premultiplied):
            // setOutputMode made both; the camera's rows, at the camera's size.
            guard let layer = cameraLayerCompositor, let messages = cameraMessageLayer else { return }
            let rows = bands.rows(ofBand: band, total: colorSize.height)
            if showMatte { layer.composeMatteView(alpha: alpha.view, into: output, rows: rows) } else {
                // The frame compositor's scratch: its patched row is the camera's width, which is all
                // this compositor's identity path uses.
                layer.writeLayer(camera: camera, alpha: alpha.view, into: output, rows: rows, premultiplied: premultiplied,
                                 scratch: scratch[band], patch: cameraPatch, look: peopleLook)
            }
            messages.draw(message, into: output, rows: rows)
        }
    }

    public func stop() { bands.stop() }
}
