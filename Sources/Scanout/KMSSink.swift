import CDRM
import CKernel
import Frames
import KernelIO

/// The display as a FrameSink: atomic KMS with scanout buffers allocated once (from libgbm where it
/// serves the card, dumb buffers otherwise: `ScanoutAllocator`; `summary` says which), a TEST_ONLY
/// commit before the first real one, non-blocking page flips with events, pending → queued →
/// current bookkeeping (ScanoutQueue), and a late frame dropped rather than queued.
///
/// Blend: in `.cpu` the slots are XRGB8888 frames on the primary plane. In `.plane` the backdrop
/// (`backdropView`) sits on the primary plane, written once, and the slots are ARGB8888 camera
/// layers on an overlay plane, written premultiplied when `blend` says so: at the output size, or
/// (`scaledLayer`, when the options ask for one and TEST_ONLY accepts it) at the camera's size,
/// scaled by the display. `planReason` says which configuration runs and why (`LayerPlan`).
///
/// Threading: every call comes from one thread, the I/O thread. `submit` commits the flip without
/// waiting; the flip's event arrives on the card's fd (`withCompletionDescriptor`, in the I/O
/// thread's epoll set) and `takeCompletion` reads it. `present` (submit, then wait for the flip)
/// is for callers without an event loop: the device tests.
///
/// Display lost: a refused commit or, while waiting, a once-a-second look at the connector status
/// (no probe, no allocation) notices an unplugged display; `present` then returns nil (dropped)
/// until the connector is back, and modesets again.
public final class KMSSink: FrameSink {
    public let card: KMSCard
    public private(set) var output: KMSOutput
    public let blend: ScanoutBlend
    public let writebackAvailable: Bool
    public private(set) var queue: ScanoutQueue
    /// False while the display is unplugged.
    public private(set) var connected = true
    /// Tests only (the end-to-end display-away scenario): while true the connector counts as
    /// unplugged, as a refused commit with the connector gone would have it; vkms cannot unplug.
    public var simulatesUnplug = false
    /// Tests only: `adoptScaledLayer` counts the scaled layer as refused, as a driver that cannot
    /// scale planes refuses it at TEST_ONLY, so the fallback runs on a driver that can.
    public var refusesScaling = false
    /// Times the display was set up again after being re-plugged.
    public private(set) var modesets = 0
    /// The camera-sized layer the display scales, when that configuration runs; `outputView` is
    /// then `scaledLayer.size`.
    public private(set) var scaledLayer: ScaledLayer?
    /// Which configuration runs and why the better ones do not, for the start-up line.
    public private(set) var planReason: String
    /// Why the last attempt to set the display up again failed (nil once one succeeds); the
    /// caller says it once.
    public private(set) var modesetFailure: ScanoutError? = nil
    /// Which path the camera view takes and why, for the start-up line (`adoptCamera`).
    public private(set) var cameraReason = "camera view: composed by the CPU: no camera adopted"
    /// Tests only: `adoptCamera` counts the camera's buffers on the overlay plane as refused, as a
    /// display that cannot scan them out refuses them at TEST_ONLY.
    public var refusesCameraPlane = false
    /// The adopted camera's buffers as framebuffers (`adoptCamera`), nil when the camera view is
    /// composed; `cameraShown` and `cameraQueued` keep a set alive while the display reads it.
    private var camera: CameraFramebuffers? = nil
    private var cameraShown: CameraFramebuffers? = nil
    private var cameraQueued: CameraFramebuffers? = nil

    private var slots: [ScanoutBuffer]
    private let backdrop: ScanoutBuffer?
    private let allocator: ScanoutAllocator
    private let writebackBuffer: DumbBuffer?
    private let request = AtomicRequest()
    private let flipEvents: UnsafeMutablePointer<bk_drm_flip>
    private let fence: UnsafeMutablePointer<Int32>
    private var modeBlob: UInt32 = 0
    private var generation: UInt64 = 1
    private var writebackArmed = false
    private var pendingFence: Int32 = -1
    /// The event loop `pendingFence` is in (`watchWritebackFence`), so closing it takes it out
    /// first: the fd never leaves this sink, and a stale number is never unwatched later.
    private var fenceLoop: EventLoop? = nil
    private var lastConnectionCheck: UInt64 = 0
    // Frame-path property IDs, resolved once.
    private let layerPlaneID: UInt32
    private let layerFramebufferProperty: UInt32
    private let writebackFramebufferProperty: UInt32
    private let writebackFenceProperty: UInt32
    private let writebackRequested: Bool

    /// Opens the card (or finds one), the connected display and its mode, allocates every buffer
    /// and sets the mode. Throws `.noDisplayConnected` when nothing is plugged in: see `open`.
    public init(options: KMSSinkOptions) throws(ScanoutError) {
        precondition(options.slotCount >= 2 && options.slotCount <= 3)
        let card = try KMSCard.open(options.card)
        // Every buffer the sink may hold at once: the slots, the backdrop under an overlay plane,
        // the writeback target. The Pi's display driver takes them from CMA, which is small.
        let buffers = options.slotCount + (options.blend == .cpu ? 0 : 1) + (options.writeback ? 1 : 0)
        var budget = DisplayMode.Budget.unbounded
        if let meminfo = try? WholeFile.text("/proc/meminfo") { budget = .fromMeminfo(meminfo, buffers: buffers) }
        let output = try KMSOutput.find(card: card, wanted: options.mode, budget: budget)
        let size = output.mode.size
        var usePlane = false
        if options.blend != .cpu, output.overlayPlaneID != nil { usePlane = true }
        if options.blend == .plane && !usePlane { throw .unsupported("no overlay plane with alpha on \(output.connectorName)") }
        self.card = card
        self.output = output
        writebackAvailable = output.writebackConnectorID != nil
        writebackRequested = options.writeback && output.writeback != nil
        writebackBuffer = options.writeback && output.writeback != nil
            ? try DumbBuffer(card: card, format: .xrgb8888, size: size) : nil
        writebackFramebufferProperty = output.writeback?.id("WRITEBACK_FB_ID") ?? 0
        writebackFenceProperty = output.writeback?.id("WRITEBACK_OUT_FENCE_PTR") ?? 0
        queue = ScanoutQueue(slotCount: options.slotCount)
        var premultiplied = true
        if usePlane, let overlay = output.overlay, overlay.id("pixel blend mode") != nil,
           overlay.enumValue("pixel blend mode", "Pre-multiplied") == nil {
            premultiplied = false
        }
        // The best configuration the driver accepts (TEST_ONLY), each tried with its own buffers.
        var why = ""
        if options.blend == .cpu { why = "[output] blend = cpu" }
        else if output.overlayPlaneID == nil { why = "no overlay plane with alpha on \(output.connectorName)" }
        else if options.scaledLayer == nil { why = "no camera-sized layer asked for" }
        var chosen: (slots: [ScanoutBuffer], backdrop: ScanoutBuffer?)? = nil
        let request = self.request
        let allocator = ScanoutAllocator(card: card)
        let decision = LayerPlan.choose(LayerPlan.candidates(blend: options.blend, overlay: usePlane, scaled: options.scaledLayer),
                                        why: why) { plan -> ScanoutError? in
            do throws(ScanoutError) {
                let plane = plan != .cpu
                var layer: ScaledLayer? = nil
                if case .scaledPlane(let scaled) = plan { layer = scaled }
                try allocator.attempt { () throws(ScanoutError) in
                    var buffers: [ScanoutBuffer] = []
                    for _ in 0..<options.slotCount {
                        buffers.append(try allocator.make(plane ? .argb8888 : .xrgb8888, layer?.size ?? size))
                    }
                    let back = plane ? try allocator.make(.xrgb8888, size) : nil
                    try Self.testModeset(card: card, output: output, request: request, slots: buffers, backdrop: back,
                                         plane: plane, layer: layer, premultiplied: premultiplied,
                                         writeback: options.writeback && output.writeback != nil)
                    chosen = (buffers, back)
                }
                return nil
            } catch {
                return error
            }
        }
        guard let plan = decision.plan, let chosen else {
            throw decision.refusal ?? .unsupported("no configuration accepted: \(decision.reason)")
        }
        if case .scaledPlane(let scaled) = plan { scaledLayer = scaled } else { scaledLayer = nil }
        planReason = decision.reason
        // Raw allocations last, so a throwing init above leaks nothing.
        flipEvents = .allocate(capacity: 8)
        fence = .allocate(capacity: 1)
        fence.pointee = -1
        slots = chosen.slots
        backdrop = chosen.backdrop
        self.allocator = allocator
        let plane = plan != .cpu
        blend = plane ? .plane(premultiplied: premultiplied) : .cpu
        layerPlaneID = plane ? output.overlayPlaneID! : output.primaryPlaneID
        layerFramebufferProperty = (plane ? output.overlay! : output.primary).id("FB_ID") ?? 0
        try modeset(showing: slots.count - 1)
    }

    /// `init`, retried every `intervalMS` while no display is connected and `keepWaiting()` says
    /// so (the caller checks its signals there); `waiting` is called once when the wait starts.
    public static func open(options: KMSSinkOptions, intervalMS: Int = 500, waiting: () -> Void = {},
                            keepWaiting: () -> Bool) throws(ScanoutError) -> KMSSink {
        var told = false
        while true {
            do throws(ScanoutError) { return try KMSSink(options: options) } catch {
                guard error == .noDisplayConnected, keepWaiting() else { throw error }
                if !told { waiting(); told = true }
                MonotonicClock.sleep(nanoseconds: UInt64(intervalMS) * 1_000_000)
            }
        }
    }

    /// Tries a camera-sized layer the display scales, once the camera's size is known (the sink
    /// opens before the camera, to say on screen that none is there): TEST_ONLY with new
    /// camera-sized slots, and when the driver accepts, the mode set again with them. Only from
    /// the output-sized overlay configuration, before a pipeline owns the slots (every slot is
    /// new afterwards; a notice on screen is gone). Returns true when the scaled layer runs;
    /// either way `planReason` then says which configuration runs and why.
    @discardableResult
    public func adoptScaledLayer(_ layer: ScaledLayer) throws(ScanoutError) -> Bool {
        guard scaledLayer == nil, let backdrop, case .plane(let premultiplied) = blend else { return scaledLayer == layer }
        var buffers: [ScanoutBuffer] = []
        for _ in 0..<slots.count { buffers.append(try allocator.make(.argb8888, layer.size)) }
        do throws(ScanoutError) {
            if refusesScaling { throw ScanoutError.unsupported("the overlay plane does not scale (refused for a test)") }
            try Self.testModeset(card: card, output: output, request: request, slots: buffers, backdrop: backdrop, plane: true,
                                 layer: layer, premultiplied: premultiplied, writeback: writebackRequested)
        } catch {
            planReason = LayerPlan.plane.runs + ": " + LayerPlan.scaledPlane(layer).name + " refused (\(error.message))"
            return false
        }
        // The old slots stay alive until the modeset has put the new ones on the planes: removing a
        // framebuffer still on a plane makes the kernel take the plane off with a blocking commit.
        let previous = slots
        let previousLayer = scaledLayer
        slots = buffers
        scaledLayer = layer
        queue = ScanoutQueue(slotCount: slots.count)
        do throws(ScanoutError) { try modeset(showing: slots.count - 1) } catch {
            slots = previous
            scaledLayer = previousLayer
            queue = ScanoutQueue(slotCount: slots.count)
            try modeset(showing: slots.count - 1)
            planReason = LayerPlan.plane.runs + ": " + LayerPlan.scaledPlane(layer).name + " refused (\(error.message))"
            return false
        }
        withExtendedLifetime(previous) {}
        planReason = LayerPlan.scaledPlane(layer).runs + ": TEST_ONLY accepted the scaled overlay"
        return true
    }

    deinit {
        takePlanesOff()
        closeFence()
        if modeBlob != 0 { _ = drmModeDestroyPropertyBlob(card.fd, modeBlob) }
        flipEvents.deallocate()
        fence.deallocate()
        card.dropMaster()
    }

    // MARK: FrameSink

    public var outputSize: FrameSize { output.mode.size }
    public var slotCount: Int { slots.count }
    public func outputView(slot: Int) -> ImageView { slots[slot].view }

    /// "Virtual-1 1024x768@60": the connector and the mode it shows, for a one-line status.
    public var modeDescription: String { "\(output.connectorName) \(output.mode.description)" }

    public var summary: String {
        var text = "display: \(card.driver) \(card.path), \(output.connectorName) \(output.mode.description)"
        text += ", blend \(blend.description)"
        if let overlay = output.overlayPlaneID, backdrop != nil {
            text += " (backdrop on plane \(output.primaryPlaneID), camera layer on plane \(overlay))"
        }
        text += ", " + ScanoutAllocator.summary(count: slots.count, gbm: slots[0].isGBM, refusal: allocator.refusal)
        text += writebackBuffer != nil ? ", writeback on" : (writebackAvailable ? ", writeback available" : "")
        // Start-up logs this line: it says which configuration runs and why the better ones do not.
        return text + "; " + planReason
    }

    /// Queues `slot` for the next vblank and waits for its page flip. Returns the flip's
    /// CLOCK_MONOTONIC time, or nil when the frame was dropped (a flip still queued, the display
    /// unplugged, or the flip event late; a late flip is collected by the next call).
    public func present(slot: Int, stamp: FrameStamp) -> UInt64? {
        collectFlips()
        switch submit(slot: slot, stamp: stamp) {
        case .shown(let time): return time
        case .refused: return nil
        case .queued: break
        }
        let deadline = MonotonicClock.nowNanoseconds() + flipTimeoutNanoseconds
        while queue.queued != nil {
            let now = MonotonicClock.nowNanoseconds()
            guard now < deadline, bk_poll_readable(card.fd, Int32((deadline - now) / 1_000_000) + 1) == 1 else { return nil }
            if let time = collectFlips() { return time }
        }
        return nil
    }

    /// Commits `slot` for the next vblank without waiting (`.queued`; the flip comes through
    /// `takeCompletion`). A re-plugged display is set up again showing `slot` (`.shown`).
    public func submit(slot: Int, stamp: FrameStamp) -> SinkSubmission {
        flip(to: slots[slot].framebufferID, showing: slot)
    }

    /// The commit behind `submit` and `submitCamera`: `framebuffer` onto the layer plane as
    /// scanout index `index`, non-blocking with a flip event.
    private func flip(to framebuffer: UInt32, showing index: Int) -> SinkSubmission {
        if simulatesUnplug && connected {
            displayLost()
            queue.drop()
            return .refused
        }
        if !connected {
            guard reconnect(showing: index) else { queue.drop(); return .refused }
            return .shown(at: MonotonicClock.nowNanoseconds())
        }
        guard queue.canQueue else { queue.drop(); return .refused }
        request.reset()
        request.add(object: layerPlaneID, property: layerFramebufferProperty, value: UInt64(framebuffer))
        let capturing = attachWriteback()
        let flags = UInt32(BK_DRM_MODE_ATOMIC_NONBLOCK) | UInt32(BK_DRM_MODE_PAGE_FLIP_EVENT)
        if let failure = request.commit(fd: card.fd, flags: flags, userData: generation << 8 | UInt64(index)) {
            if capturing { writebackArmed = true }
            if failure != .busy && !KMSOutput.isConnected(card: card, connectorID: output.connectorID) {
                displayLost()
            }
            queue.drop()
            return .refused
        }
        if capturing { takeFence() }
        queue.queue(index)
        cameraQueued = queue.isDirect(index) ? camera : nil
        return .queued
    }

    /// The flip of the queued slot, once its event was read from the card's fd (never blocks).
    public func takeCompletion() -> SinkCompletion? {
        guard let slot = queue.queued, let time = collectFlips() else { return nil }
        return SinkCompletion(slot: slot, nanoseconds: time)
    }

    public func withCompletionDescriptor<R>(_ body: (Int32) -> R) -> R { body(card.fd) }

    /// What the display shows (or is about to, when a flip is still queued): the first modeset's
    /// slot, or a notice committed before a pipeline took over.
    public var initiallyShownSlot: Int? { queue.queued ?? queue.current }

    public func finish() -> String? {
        "kms: \(queue.flips) flips, \(queue.dropped) dropped, \(modesets) re-modesets"
    }

    // MARK: Plane blend and writeback

    /// The backdrop on the primary plane in `.plane` blend (XRGB8888, the mode's size); nil in
    /// `.cpu`. It is on screen: write it before the first present, or accept a torn frame when
    /// it changes.
    public var backdropView: ImageView? { backdrop?.view }

    /// Captures the next presented frame through the writeback connector (needs
    /// `options.writeback`). Returns false when the display has no writeback.
    @discardableResult
    public func armWriteback() -> Bool {
        guard writebackBuffer != nil else { return false }
        // A capture nobody took (a photo given up on) must not pass for this one.
        closeFence()
        writebackArmed = true
        return true
    }

    /// Waits up to `timeoutMS` for the last armed capture and lends exactly what the display
    /// showed (XRGB8888, the mode's size; the X byte reads 0xff). Returns nil when nothing was
    /// captured in time.
    public func withWriteback<R>(timeoutMS: Int, _ body: (ImageView) -> R) -> R? {
        guard let buffer = writebackBuffer, pendingFence >= 0 else { return nil }
        guard bk_poll_readable(pendingFence, Int32(timeoutMS)) == 1 else { return nil }
        closeFence()
        return body(buffer.view)
    }

    /// Puts the out-fence of the capture armed last into `loop` under `token`: the loop wakes with
    /// it once the display has written the capture. The fd stays this sink's (it leaves the loop
    /// when the sink closes it: taken, given up, armed again, closed). False while no fence exists
    /// yet (the commit carrying the capture is still to come); true again when already watched.
    public func watchWritebackFence(in loop: EventLoop, token: UInt64) throws(SystemError) -> Bool {
        guard pendingFence >= 0 else { return false }
        if fenceLoop != nil { return true }
        try loop.watch(pendingFence, token: token)
        fenceLoop = loop
        return true
    }

    /// Gives up the capture armed last: its fence leaves the loop and is closed.
    public func dropWriteback() {
        writebackArmed = false
        closeFence()
    }

    /// Lends the capture once its fence was readable (no waiting here) and forgets the fence.
    public func takeWriteback<R>(_ body: (ImageView) -> R) -> R? {
        guard let buffer = writebackBuffer, pendingFence >= 0 else { return nil }
        closeFence()
        return body(buffer.view)
    }

    // MARK: Internals

    private var flipTimeoutNanoseconds: UInt64 {
        let period = 1_000_000_000 / UInt64(max(output.mode.refreshHz, 1))
        // Generous: a late flip costs a wait, a too-early give-up costs a dropped frame.
        return max(6 * period, 250_000_000)
    }

    /// Reads queued flip events; returns the time of the one that completed our queued slot.
    @discardableResult
    private func collectFlips() -> UInt64? {
        var time: UInt64? = nil
        while true {
            let count = bk_drm_read_flips(card.fd, flipEvents, 8)
            guard count > 0 else { return time }
            for index in 0..<Int(count) {
                let event = flipEvents[index]
                // Events from before a re-modeset belong to buffers no longer queued.
                guard event.user_data >> 8 == generation, let queued = queue.queued,
                      UInt64(queued) == event.user_data & 0xff else { continue }
                queue.flipped()
                cameraShown = cameraQueued
                cameraQueued = nil
                time = event.nanoseconds
            }
        }
    }

    private func attachWriteback() -> Bool {
        guard writebackArmed, let buffer = writebackBuffer, let connector = output.writebackConnectorID else { return false }
        closeFence()
        fence.pointee = -1
        request.add(object: connector, property: writebackFramebufferProperty, value: UInt64(buffer.framebufferID))
        request.add(object: connector, property: writebackFenceProperty, value: UInt64(UInt(bitPattern: fence)))
        writebackArmed = false
        return true
    }

    private func takeFence() {
        pendingFence = fence.pointee
        fence.pointee = -1
    }

    /// The one place the out-fence is closed: out of the loop it is in first.
    private func closeFence() {
        guard pendingFence >= 0 else { return }
        fenceLoop?.unwatch(pendingFence)
        fenceLoop = nil
        _ = bk_close(pendingFence)
        pendingFence = -1
    }

    /// Closing: one commit takes the planes this sink put on the CRTC off it, before the buffers
    /// go (the slots, the backdrop and the writeback buffer are released right after `deinit`,
    /// each with RMFB). A framebuffer removed while a plane still shows it makes the kernel take
    /// that plane off itself, inside RMFB, through a kernel worker and a blocking commit of its
    /// own, one per framebuffer on screen; a framebuffer an unfinished commit still holds also
    /// goes through the worker. Blocking, so that when it returns the kernel holds none of the
    /// buffers and each RMFB only frees: it waits for a flip still pending and this commit's
    /// vblank, no longer (a non-blocking one left the worker hop to every RMFB, slower on the
    /// loaded virtual board). A driver that refuses the CRTC on with no primary plane gets the
    /// CRTC switched off with it (a modeset). Failing both (the display gone), the kernel's own
    /// removal stays, as before.
    private func takePlanesOff() {
        for crtcToo in [false, true] {
            request.reset()
            request.add(output.primary, "FB_ID", 0)
            request.add(output.primary, "CRTC_ID", 0)
            if backdrop != nil, let overlay = output.overlay {
                request.add(overlay, "FB_ID", 0)
                request.add(overlay, "CRTC_ID", 0)
            }
            var flags: UInt32 = 0
            if crtcToo {
                request.add(output.connector, "CRTC_ID", 0)
                if writebackBuffer != nil, let connector = output.writeback { request.add(connector, "CRTC_ID", 0) }
                request.add(output.crtc, "MODE_ID", 0)
                request.add(output.crtc, "ACTIVE", 0)
                flags = UInt32(BK_DRM_MODE_ATOMIC_ALLOW_MODESET)
            }
            if request.commit(fd: card.fd, flags: flags) == nil { return }
        }
    }

    /// Stops presenting until the connector reports connected again (checked once a second).
    func displayLost() {
        connected = false
        lastConnectionCheck = MonotonicClock.nowNanoseconds()
    }

    private func reconnect(showing slot: Int) -> Bool {
        let now = MonotonicClock.nowNanoseconds()
        guard now &- lastConnectionCheck >= 1_000_000_000 else { return false }
        lastConnectionCheck = now
        guard !simulatesUnplug, KMSOutput.isConnected(card: card, connectorID: output.connectorID) else { return false }
        do throws(ScanoutError) {
            try modeset(showing: slot)
            modesets += 1
            return true
        } catch {
            modesetFailure = error
            return false
        }
    }

    /// Sets the mode with the buffers on their planes: TEST_ONLY first, then for real (blocking).
    private func modeset(showing shown: Int) throws(ScanoutError) {
        if modeBlob == 0 {
            var info = output.mode.info
            guard drmModeCreatePropertyBlob(card.fd, &info, MemoryLayout<drmModeModeInfo>.size, &modeBlob) == 0 else {
                throw .system(SystemError("create mode blob"))
            }
        }
        generation += 1
        // A camera buffer shown by the modeset (a display re-plugged during the camera view) takes
        // the layer plane instead of an output slot.
        let direct = queue.isDirect(shown) ? camera : nil
        Self.fillModeset(request: request, output: output, modeBlob: modeBlob, slots: slots,
                         shown: direct == nil ? shown : slots.count - 1,
                         backdrop: backdrop, plane: backdrop != nil, layer: scaledLayer,
                         premultiplied: blend != .plane(premultiplied: false),
                         writeback: writebackBuffer != nil,
                         layerFramebuffer: direct?.framebufferID(shown - slots.count))
        let modesetFlags = UInt32(BK_DRM_MODE_ATOMIC_ALLOW_MODESET)
        if let failure = request.commit(fd: card.fd, flags: modesetFlags | UInt32(BK_DRM_MODE_ATOMIC_TEST_ONLY)) {
            throw .commitRejected(request.missing ?? "the mode \(output.mode.description) (test)", failure)
        }
        // A capture armed while the display was away is taken by the modeset that brings it back:
        // the frame it shows is the one presented. Attached after the test commit, which must not
        // be handed the out-fence pointer.
        let capturing = attachWriteback()
        if let failure = request.commit(fd: card.fd, flags: modesetFlags) {
            if capturing { writebackArmed = true }
            throw .commitRejected("the mode \(output.mode.description)", failure)
        }
        if capturing { takeFence() }
        queue.shown(shown)
        cameraShown = direct
        cameraQueued = nil
        connected = true
        modesetFailure = nil
    }

    private static func testModeset(card: KMSCard, output: KMSOutput, request: AtomicRequest, slots: [ScanoutBuffer],
                                    backdrop: ScanoutBuffer?, plane: Bool, layer: ScaledLayer?, premultiplied: Bool,
                                    writeback: Bool) throws(ScanoutError) {
        var blob: UInt32 = 0
        var info = output.mode.info
        guard drmModeCreatePropertyBlob(card.fd, &info, MemoryLayout<drmModeModeInfo>.size, &blob) == 0 else {
            throw .system(SystemError("create mode blob"))
        }
        defer { _ = drmModeDestroyPropertyBlob(card.fd, blob) }
        fillModeset(request: request, output: output, modeBlob: blob, slots: slots, shown: slots.count - 1, backdrop: backdrop,
                    plane: plane, layer: layer, premultiplied: premultiplied, writeback: writeback)
        let flags = UInt32(BK_DRM_MODE_ATOMIC_ALLOW_MODESET) | UInt32(BK_DRM_MODE_ATOMIC_TEST_ONLY)
        if let failure = request.commit(fd: card.fd, flags: flags) {
            let what = layer != nil ? "the scaled overlay-plane configuration"
                : plane ? "the overlay-plane configuration" : "the mode \(output.mode.description)"
            throw .commitRejected(request.missing ?? what, failure)
        }
    }

    private static func fillModeset(request: AtomicRequest, output: KMSOutput, modeBlob: UInt32, slots: [ScanoutBuffer],
                                    shown shownIndex: Int, backdrop: ScanoutBuffer?, plane: Bool, layer: ScaledLayer?,
                                    premultiplied: Bool, writeback: Bool, layerFramebuffer: UInt32? = nil) {
        let size = output.mode.size
        let crtc = UInt64(output.crtcID)
        request.reset()
        request.add(output.connector, "CRTC_ID", crtc)
        request.add(output.crtc, "MODE_ID", UInt64(modeBlob))
        request.add(output.crtc, "ACTIVE", 1)
        let shown = slots[shownIndex]
        let whole = PlaneRect(x: 0, y: 0, width: size.width, height: size.height)
        place(request, output.primary, framebuffer: plane ? backdrop!.framebufferID : shown.framebufferID, crtc: crtc,
              source: whole, target: whole)
        if plane, let overlay = output.overlay {
            place(request, overlay, framebuffer: layerFramebuffer ?? shown.framebufferID, crtc: crtc,
                  source: layer?.source ?? whole, target: layer?.target ?? whole)
            if overlay.id("pixel blend mode") != nil && !overlay.isImmutable("pixel blend mode"),
               let mode = overlay.enumValue("pixel blend mode", premultiplied ? "Pre-multiplied" : "Coverage") {
                request.add(overlay, "pixel blend mode", mode)
            }
            if overlay.id("alpha") != nil && !overlay.isImmutable("alpha") { request.add(overlay, "alpha", 0xffff) }
        } else if let overlay = output.overlay, overlay.value("CRTC_ID") == crtc {
            request.add(overlay, "FB_ID", 0)
            request.add(overlay, "CRTC_ID", 0)
        }
        for stray in output.strayPlanes {
            request.add(stray, "FB_ID", 0)
            request.add(stray, "CRTC_ID", 0)
        }
        if writeback, let connector = output.writeback { request.add(connector, "CRTC_ID", crtc) }
    }

    private static func place(_ request: AtomicRequest, _ plane: KMSProperties, framebuffer: UInt32, crtc: UInt64,
                              source: PlaneRect, target: PlaneRect) {
        request.add(plane, "FB_ID", UInt64(framebuffer))
        request.add(plane, "CRTC_ID", crtc)
        // Source rectangle in 16.16 fixed point, destination in pixels; a driver that cannot
        // scale refuses them differing in size.
        request.add(plane, "SRC_X", UInt64(source.x) << 16)
        request.add(plane, "SRC_Y", UInt64(source.y) << 16)
        request.add(plane, "SRC_W", UInt64(source.width) << 16)
        request.add(plane, "SRC_H", UInt64(source.height) << 16)
        request.add(plane, "CRTC_X", UInt64(target.x))
        request.add(plane, "CRTC_Y", UInt64(target.y))
        request.add(plane, "CRTC_W", UInt64(target.width))
        request.add(plane, "CRTC_H", UInt64(target.height))
    }
}

// MARK: Camera view (zero-copy)

extension KMSSink {
    /// True once `adoptCamera` put the camera's own buffers on the overlay plane: `submitCamera`
    /// then shows a captured frame with no compute at all.
    public var showsCameraDirectly: Bool { camera != nil }

    /// Makes the camera view (the unmatted preview) zero-copy where the display allows: imports
    /// the camera's `slotCount` buffers (`format` at `size`, `bytesPerRow` apart) as framebuffers
    /// and TEST_ONLYs the overlay plane showing the first at the scaled layer's rectangles, so the
    /// display scales the camera's frame over the backdrop as it scales the camera-sized layer.
    /// Only in the scaled-layer configuration (`scaledLayer` at the camera's size, `.plane` blend).
    /// `dmabuf(slot, use)` lends slot `slot`'s dmabuf fd to `use`, or does not call it when the
    /// slot has none: `{ slot, use in _ = camera.withDMABuf(slot: slot, use) }`; no fd is kept.
    /// Returns `showsCameraDirectly`; either way `cameraReason` says which path the camera view
    /// takes and why. Setup only (it allocates and asks the kernel), on the I/O thread.
    ///
    /// Call it again after the camera was reopened (new buffers): the new set replaces the old at
    /// once, and a refusal leaves none. The old set is not removed while the display may read it:
    /// it stays alive while one of its framebuffers is on screen or queued, and goes when the next
    /// flip or modeset shows something else (removing a framebuffer a plane shows would make the
    /// kernel take the plane off). After the call, `submitCamera(slot:)` names the new camera's
    /// slots; a direct index still current in `queue` then leaves the screen with the next flip,
    /// reported as `flipped()` reports any slot.
    @discardableResult
    public func adoptCamera(format: PixelFormat, size: FrameSize, bytesPerRow: Int, slotCount: Int,
                            dmabuf: (_ slot: Int, _ use: (Int32) -> Void) -> Void) -> Bool {
        camera = nil
        let what = "the camera's \(format.name) \(size.description) buffers"
        guard case .plane = blend, let layer = scaledLayer, let overlay = output.overlay, let planeID = output.overlayPlaneID else {
            return refuseCamera("not the scaled layer configuration (\(planReason))")
        }
        guard layer.size == size else {
            return refuseCamera("the camera's \(size.description) is not the scaled layer's \(layer.size.description)")
        }
        guard CameraFramebuffers.plane(planeID, on: card, takes: format) else {
            return refuseCamera("the overlay plane \(planeID) does not take \(format.name)")
        }
        let imported: CameraFramebuffers
        do throws(CameraFramebuffers.Refusal) {
            imported = try CameraFramebuffers(card: card, format: format, size: size, bytesPerRow: bytesPerRow,
                                              count: slotCount, dmabuf: dmabuf)
        } catch {
            return refuseCamera(error.message)
        }
        guard imported.count > 0 else { return refuseCamera("the camera has no buffers") }
        if refusesCameraPlane { return refuseCamera("the overlay plane refused \(what) (refused for a test)") }
        request.reset()
        Self.place(request, overlay, framebuffer: imported.framebufferID(0), crtc: UInt64(output.crtcID),
                   source: layer.source, target: layer.target)
        if let failure = request.commit(fd: card.fd, flags: UInt32(BK_DRM_MODE_ATOMIC_TEST_ONLY)) {
            return refuseCamera(ScanoutError.commitRejected(request.missing ?? "\(what) on the overlay plane (test)", failure).message)
        }
        camera = imported
        cameraReason = "camera view: zero-copy, \(what) on plane \(planeID) scaled to "
            + "\(layer.target.width)x\(layer.target.height)"
        return true
    }

    /// Shows camera slot `cameraSlot` (a buffer of the camera `adoptCamera` took) on the layer
    /// plane without waiting, as `submit` shows an output slot: `.queued`, its flip then reported
    /// by `takeCompletion` as `directSlot(cameraSlot)`; `.shown` when a re-plugged display was set
    /// up again showing it; `.refused` (dropped) when no camera is adopted, a flip is still queued
    /// or the display is away. The camera buffer must stay with the display until a later
    /// completion says it left the screen.
    public func submitCamera(slot cameraSlot: Int, stamp: FrameStamp) -> SinkSubmission {
        guard let camera, cameraSlot >= 0, cameraSlot < camera.count else {
            queue.drop()
            return .refused
        }
        return flip(to: camera.framebufferID(cameraSlot), showing: directSlot(cameraSlot))
    }

    /// Drops any adopted camera and says why the camera view is composed by the CPU: for a
    /// camera whose buffers cannot be offered at all (decoded or converted frames, no dmabuf
    /// export). Setup only, on the I/O thread.
    public func declineCamera(_ why: String) { _ = refuseCamera(why) }

    private func refuseCamera(_ why: String) -> Bool {
        camera = nil
        cameraReason = "camera view: composed by the CPU: " + why
        return false
    }
}
