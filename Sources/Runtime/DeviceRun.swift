import Backgrounds
import Buttons
import Capture
import Controls
import Frames
import KernelIO
import Matte
import Photos
import Pipeline
import Scanout
import Settings

/// `source = v4l2`, `sink = kms`: the appliance on real devices, in this order: the display
/// (waited for, so the box can say what is wrong on screen), the buttons, the cameras (waited
/// for with a notice), then the live booth (`DeviceSession`): three states of the one runtime loop,
/// which is READY from its first wait on.
public enum DeviceRun {
    public static func run(settings: Settings, configPath: String, assembly: PipelineAssembly, backdrops: BackgroundLibrary,
                           signals: borrowing SignalChannel, frames: Int, options: RuntimeOptions) throws(CommandFailure) {
        let shutdown = ShutdownSteps()
        try open(settings: settings, configPath: configPath, assembly: assembly, backdrops: backdrops, signals: signals,
                 frames: frames, options: options, shutdown: shutdown)
        // Here every device is closed (their owners ended with `open`).
        shutdown.mark("devices closed")
        if let summary = shutdown.summary { Log.info(summary) }
    }

    private static func open(settings: Settings, configPath: String, assembly: PipelineAssembly,
                             backdrops initialBackdrops: BackgroundLibrary, signals: borrowing SignalChannel, frames: Int,
                             options: RuntimeOptions, shutdown: ShutdownSteps) throws(CommandFailure) {
        guard settings.output.sink == .kms else {
            throw .invalidInput("[camera] source = v4l2 needs [output] sink = kms in this build")
        }
        let runtime = try RuntimeLoop(signals: signals, service: ServiceLink())
        let loop = runtime.events
        // Made now: an import that ends while the box waits for its devices is news to the booth.
        let importNotices = ImportNoticeWatch(configPath: configPath)
        let sinkOptions = DeviceSettings.sinkOptions(settings.output)
        guard let sink = try DisplayWait.open(loop: runtime, signals: signals, { () throws(ScanoutError) in
            try KMSSink(options: sinkOptions)
        }) else { return }
        Log.info(sink.summary)
        // Backdrops are prescaled once to the mode the display granted.
        let backdrops = initialBackdrops.outputSize == sink.outputSize ? initialBackdrops
            : try BackdropChoice.library(settings: settings, outputSize: sink.outputSize)
        let layer: Bool
        if case .plane = sink.blend { layer = true } else { layer = false }
        if layer { NoticeScreen.copy(backdrops.current, into: sink.backdropView) }
        runtime.attach(ButtonSetup.open(settings.buttons, boardDirectory: options.boardDirectory))

        let sourceConfiguration = DeviceSettings.sourceConfiguration(settings.camera)
        let screen = SinkNoticeScreen(sink: sink, backdrop: backdrops.current, layer: layer, events: loop)
        guard let source = CameraWait.open(loop: runtime, signals: signals, screen: screen, notices: importNotices,
                                           noticeHold: options.importNoticeNanoseconds, { () throws(CaptureError) in
            try V4L2Source(configuration: sourceConfiguration)
        }) else { return }
        Log.info(source.summary)
        let tolerance = settings.sync.toleranceNanoseconds(fps: source.frameRate)
        let processor = try assembly.makeProcessor(colorFormat: source.colorFormat, colorSize: source.colorSize,
                                                   depthSize: source.depthSize, outputSize: sink.outputSize,
                                                   fit: settings.background.fit, matte: settings.matte,
                                                   projection: DepthRegistration.projection(
                                                       camera: settings.camera, depthSize: source.depthSize,
                                                       colorSize: source.colorSize, fromCamera: source.calibration,
                                                       cameraNote: source.calibrationNote))
        let scaled = try scaleOnTheDisplay(sink: sink, processor: processor, refused: options.refuseScaling)
        CameraViewPath.offer(source: source, sink: sink)
        // The photo's layers are the camera's frames and the matte, as compute sees them; where the
        // display blends the camera over the backdrop plane, the photo is composed the same way
        // (scaled as the display scales it, when it does).
        let planes: PhotoLayout.Planes
        if case .plane(let premultiplied) = sink.blend { planes = .layerOverBackdrop(premultiplied: premultiplied) } else { planes = .whole }
        let photoLayout = PhotoLayout(compositeSize: sink.outputSize,
                                      layers: settings.photos.keepLayers
                                          ? PhotoLayout.Layers(colourFormat: source.colorFormat, colourSize: source.colorSize,
                                                               alphaSize: source.colorSize, depthSize: source.depthSize)
                                          : nil,
                                      planes: planes, layerPlacement: scaled ? processor.placement : nil)
        if case .plane(let premultiplied) = sink.blend {
            processor.setOutputMode(scaled ? .cameraLayer(premultiplied: premultiplied) : .layer(premultiplied: premultiplied))
        }
        let runner = try assembly.startRunner(source: source, sink: sink, processor: processor, pacing: .live,
                                              syncToleranceNanoseconds: tolerance,
                                              generation: FrameGeneration(matte: settings.matte, backdrop: backdrops.current),
                                              loop: loop)
        assembly.placeIOThread()
        if assembly.realtimePriority > 0 && (runner.computeRefusedRealtime || processor.refusedRealtime) {
            Log.warning("real-time priority was not permitted (needs CAP_SYS_NICE or root); running at normal priority")
        }
        Log.info("running: matte \(settings.matte.mode.name), blend \(layer ? "on the display" : "on the CPU"), "
                 + "\(scaled ? "camera layer \(source.colorSize.description) scaled by the display" : "compose at \(sink.outputSize.description)"), "
                 + "\(processor.bandCount) compute band(s)")
        runtime.service.running(devices: "camera \(source.colorFormat.name) \(source.colorSize.description) + depth "
                        + "\(source.depthSize.description) at \(source.frameRate) fps; display \(sink.modeDescription)",
                        backdrops: backdrops)
        let photos = try PhotoSetup.shutter(settings.photos, layout: photoLayout, loop: loop, cpuMask: assembly.computeCPUMask,
                                            renameDelayMS: options.photoRenameDelayMS)
        let session = DeviceSession(runner: runner, runtime: runtime, settings: settings, configPath: configPath,
                                    backdrops: LiveBackdrops(backdrops, loop: loop, cpuMask: assembly.computeCPUMask,
                                                             plane: layer ? { backdrop in
                                                                 runner.withSink { NoticeScreen.copy(backdrop, into: $0.backdropView) }
                                                             } : nil),
                                    importNotices: importNotices, layer: layer,
                                    messages: processor.messages, shutter: photos.capture,
                                    screens: PhotoSetup.screens(settings.photos, loop: loop, cpuMask: assembly.computeCPUMask),
                                    options: options, shutdown: shutdown)
        session.run(signals: signals, frames: frames)
        photos.writer?.stop()
        shutdown.mark("photo writer")
    }

    /// A camera with fewer pixels than the mode: asks the display to scale a camera-sized layer
    /// (TEST_ONLY decides; compose then follows the camera's pixels, not the TV's) and says which
    /// configuration runs and why. False: the layer stays output-sized, or the CPU composes frames.
    /// `refused` ($BACKDROP_TEST_REFUSE_SCALING, tests only) has the display refuse the scaled layer
    /// as a driver that cannot scale would, so the fallback can be run on a board that can.
    private static func scaleOnTheDisplay(sink: KMSSink, processor: FrameProcessor, refused: Bool) throws(CommandFailure) -> Bool {
        guard case .plane = sink.blend, processor.colorSize.pixelCount < sink.outputSize.pixelCount else { return false }
        if refused {
            Log.warning("display: scaling refused for the test (BACKDROP_TEST_REFUSE_SCALING)")
            sink.refusesScaling = true
        }
        let adopted: Bool
        do throws(ScanoutError) {
            adopted = try sink.adoptScaledLayer(ScaledLayer(camera: processor.colorSize, mapping: processor.mapping))
        } catch {
            throw .runtime("cannot set the display up again: \(error.message)")
        }
        Log.info("display layer: \(sink.planReason)")
        return adopted
    }
}
