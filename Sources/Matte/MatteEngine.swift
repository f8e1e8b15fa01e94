import Frames
import KernelIO

/// Turns one Z16 depth frame into an 8-bit alpha at colour resolution: 255 where the subject is.
///
/// Every plane is allocated in `init`; `process` allocates nothing, logs nothing and never
/// blocks. Not thread-safe: one engine belongs to one pipeline stage, and it runs on one thread
/// (the region and label stages need the whole frame).
///
/// Cost follows the edges, not the area: flat stretches are copied or skipped many pixels at a
/// time, and only pixels near a change of class or alpha are worked on.
///
/// `process` runs these stages in order, each timed as the `MatteStage` named first; stages 1-7
/// on the "work" grid (the depth grid when registered, the colour camera's geometry at about
/// depth resolution when projecting), 8-9 at colour resolution. Sources/Matte/README.md says what
/// each reads and writes and how they depend on each other.
///  1. depth: into the work grid (as is, nearest-neighbour resample, or reprojection);
///  2. band: fixed near..far, or auto's subject distance + margin (SubjectTracker); used only by
///     the per-pixel fallback of 5;
///  3. floorFit: the floor plane (FloorTracker);
///  4. floorMarks: each reading on the floor, in its foot zone or neither (`segments.floor`);
///  5. regions: people by depth continuity (DepthSegments) into the class map, judged on
///     near..far (fixed) or near..subject_max (auto); it also copies the work depth for 7.
///     Frames too noisy to segment are classified per pixel on the band of 2;
///  6. labels: holes filled, specks dropped, enclosed gaps filled (RunLabeller), or the class map
///     per pixel when too noisy;
///  7. temporal: smoothing only where depth is steady, so a moving subject is not smeared;
///  8. colourEdges (with a colour frame of alpha size): up to colour resolution, the edges and
///     shadow strips decided by colour (ColourEdges);
///  9. feather: a box feather at colour resolution with colour's decisions put back after it, or,
///     without colour, nearest-neighbour upscale and box feather (AlphaFeather).
/// `decontaminate`, called after `process`, is stage 10 (decontamination: RimDecontamination).
/// Thresholds are converted to raw depth units once per frame, so no per-pixel unit multiply.
public final class MatteEngine {
    public private(set) var parameters: MatteParameters
    public let depthSize: FrameSize
    public let alphaSize: FrameSize
    public let projection: DepthProjection?
    /// The grid the matte is decided on before it is brought up to alpha resolution.
    public let workSize: FrameSize

    private let ownDepth: UnsafeMutablePointer<UInt16>
    /// The last frame's work depth for the temporal stage, and where this frame's is copied
    /// while it runs (DepthSegments copies it on its pass over the depth); swapped afterwards.
    private var previousDepth: UnsafeMutablePointer<UInt16>
    private var nextPreviousDepth: UnsafeMutablePointer<UInt16>
    private let classes: UnsafeMutablePointer<UInt8>
    private let mask: UnsafeMutablePointer<UInt8>
    private let softAlpha: UnsafeMutablePointer<UInt8>
    private let resample: NearestGrid
    private let resampleColumns: UnsafeMutablePointer<Int32>
    private let resampleRows: UnsafeMutablePointer<Int32>
    /// Unregistered depth into the work grid (nil when depth is registered).
    private let reprojection: DepthReprojection?
    private let workCamera: DepthProjection.Pinhole
    private let labeller: RunLabeller
    private let floorTracker: FloorTracker
    private let segments: DepthSegments
    /// The work grid's rays (x/z per column, y/z per row), for the floor: from the colour camera
    /// when projecting, else a nominal 70 degree pinhole (see FloorTracker on why that is enough).
    private let gridRayX: UnsafeMutablePointer<Float>
    private let gridRayY: UnsafeMutablePointer<Float>
    /// Width of one work pixel at 1 m, millimetres.
    private let gridPixelMM: Float
    private let tracker = SubjectTracker()
    private let feather: AlphaFeather
    /// With a colour frame: the edges decided by colour at colour resolution, then feathered there.
    private let edges: ColourEdges
    private let colourFeather: AlphaFeather
    private let decontamination: RimDecontamination
    private let directDepth: Bool
    private let memory: AlignedBuffer

    private var hasPrevious = false
    /// `segments.floor` is all 0 (markFloor found no plane and cleared it, and nothing has
    /// written it since).
    private var floorMarksClear = false
    private var previousUnit: Float = 0

    /// Per-stage timing for `backdrop bench`; nil (the frame path) times nothing.
    public var stageTimes: MatteStageTimes?

    /// Throws ENOMEM when its planes cannot be had (with its parts, about 40 bytes per pixel when
    /// depth and colour are the same size, 670 MB at 4096x4096): the sizes are a camera's or a
    /// recording's, so that is a message, not a crash.
    public init(parameters: MatteParameters, depthSize: FrameSize, alphaSize: FrameSize,
                projection: DepthProjection? = nil) throws(SystemError) {
        precondition(depthSize.width > 0 && depthSize.height > 0 && alphaSize.width > 0 && alphaSize.height > 0)
        self.parameters = parameters
        self.depthSize = depthSize
        self.alphaSize = alphaSize
        self.projection = projection
        var camera = DepthProjection.Pinhole(fx: 1, fy: 1, cx: 0, cy: 0)
        if let projection {
            // About one depth sample per work pixel: denser leaves cracks, sparser wastes depth.
            let scale = min(1, projection.depth.fx / projection.colour.fx)
            let width = max(1, Int(Float(alphaSize.width) * scale + 0.5))
            let height = max(1, Int(Float(alphaSize.height) * scale + 0.5))
            workSize = FrameSize(width: width, height: height)
            camera = projection.colour.scaled(x: Float(width) / Float(alphaSize.width),
                                              y: Float(height) / Float(alphaSize.height))
        } else {
            workSize = FrameSize(width: min(depthSize.width, alphaSize.width),
                                 height: min(depthSize.height, alphaSize.height))
        }
        workCamera = camera
        directDepth = projection == nil && workSize == depthSize
        let pixels = workSize.pixelCount
        var layout = BufferLayout()
        let ownDepthSlot = layout.reserve(UInt16.self, count: pixels + 16)
        let previousDepthSlot = layout.reserve(UInt16.self, count: pixels + 16)
        let nextPreviousDepthSlot = layout.reserve(UInt16.self, count: pixels + 16)
        let classesSlot = layout.reserve(UInt8.self, count: pixels + 16)
        let maskSlot = layout.reserve(UInt8.self, count: pixels + 16)
        let softAlphaSlot = layout.reserve(UInt8.self, count: pixels + 16)
        let gridRayXSlot = layout.reserve(Float.self, count: workSize.width)
        let gridRayYSlot = layout.reserve(Float.self, count: workSize.height)
        memory = try AlignedBuffer(layout: layout)
        ownDepth = memory.pointer(ownDepthSlot)
        previousDepth = memory.pointer(previousDepthSlot)
        nextPreviousDepth = memory.pointer(nextPreviousDepthSlot)
        classes = memory.pointer(classesSlot)
        mask = memory.pointer(maskSlot)
        softAlpha = memory.pointer(softAlphaSlot)
        gridRayX = memory.pointer(gridRayXSlot)
        gridRayY = memory.pointer(gridRayYSlot)
        resample = try NearestGrid(from: depthSize, to: workSize)
        resampleColumns = resample.columns
        resampleRows = resample.rows
        if let projection {
            reprojection = try DepthReprojection(projection: projection, depthSize: depthSize, workSize: workSize,
                                                 workCamera: camera)
        } else {
            reprojection = nil
        }
        labeller = try RunLabeller(width: workSize.width, height: workSize.height)
        floorTracker = try FloorTracker(width: workSize.width, height: workSize.height)
        segments = try DepthSegments(width: workSize.width, height: workSize.height)
        let grid = projection != nil ? camera
            : PinholeIntrinsics(fx: Float(workSize.width) * 0.72, fy: Float(workSize.width) * 0.72,
                                cx: Float(workSize.width - 1) / 2, cy: Float(workSize.height - 1) / 2)
        for u in 0..<workSize.width { gridRayX[u] = (Float(u) - grid.cx) / grid.fx }
        for v in 0..<workSize.height { gridRayY[v] = (Float(v) - grid.cy) / grid.fy }
        gridPixelMM = 1000 / grid.fx
        feather = try AlphaFeather(workSize: workSize, alphaSize: alphaSize)
        edges = try ColourEdges(workSize: workSize, alphaSize: alphaSize)
        colourFeather = try AlphaFeather(workSize: alphaSize, alphaSize: alphaSize)
        decontamination = try RimDecontamination(size: alphaSize)
    }

    /// The subject distance auto mode is tracking, millimetres; nil in fixed mode or when the
    /// booth is empty.
    public var subjectDistanceMM: Int? {
        parameters.mode == .auto ? tracker.trackedMM : nil
    }

    /// Runs the last frame was labelled with: the matte's cost grows with this (edges and noise),
    /// not with the image area. Equals `runCapacity` when the frame was too noisy to label (it
    /// was then matted per pixel). For benchmarks and diagnostics.
    public var lastRunCount: Int { labeller.count }
    public var runCapacity: Int { labeller.capacity }

    /// Colour edges decided in lanes (the default) or pixel by pixel: the same bytes either way;
    /// for the tests that prove it.
    var vectorisedEdges: Bool {
        get { edges.vectorised }
        set { edges.vectorised = newValue }
    }

    /// What the last `process` decided its regions and labels on, for the tests that hold the
    /// segmenter, the labeller and the temporal blend to their references (MatteReference) on
    /// whole scenes. `depth` is only valid while the frame is.
    struct Inspection {
        var depth: UnsafePointer<UInt16>
        var stride: Int
        var unit: Float
        /// The regions' band in raw units, and whether the feet were grown.
        var regionNear: UInt16
        var regionFar: UInt16
        var feet: Bool
        var pixelWidthMM: Float
        /// Whether the frame was segmented and labelled (not too noisy for either).
        var segmented = false
        var labelled = false
    }
    private(set) var lastWork: Inspection?
    var maskPlane: UnsafePointer<UInt8> { UnsafePointer(mask) }
    var classesPlane: UnsafePointer<UInt8> { UnsafePointer(classes) }
    var floorMarks: UnsafePointer<UInt8> { UnsafePointer(segments.floor) }
    var segmentCapacity: Int { segments.capacity }
    var softPlane: UnsafePointer<UInt8> { UnsafePointer(softAlpha) }

    /// Largest feather radius honoured; larger requests are clamped.
    public static var maximumFeatherPixels: Int { AlphaFeather.maximumRadius }

    /// Takes new thresholds (config reload). Allocates nothing; a change of mode restarts the
    /// subject tracking, everything else carries over.
    public func update(parameters newParameters: MatteParameters) {
        if newParameters.mode != parameters.mode { tracker.reset() }
        parameters = newParameters
    }

    /// Forgets the previous frame (temporal smoothing and the tracked subject), e.g. after the
    /// camera restarted.
    public func reset() {
        hasPrevious = false
        tracker.reset()
        floorTracker.reset()
    }

    /// The floor plane found in the last frame, as (normal x, y, z, camera height mm) in the work
    /// grid's camera frame; nil when no floor is in view. For tests and diagnostics.
    public var floorPlane: (Float, Float, Float, Float)? {
        floorTracker.plane.map { ($0.nx, $0.ny, $0.nz, $0.offset) }
    }

    /// One frame: `depth` is .z16 of `depthSize`, raw values times `unitMM` are millimetres,
    /// 0 = no reading. `alpha` is .alpha8 of `alphaSize`. `colour`, the camera's frame of
    /// `alphaSize` the depth goes with (YUYV, NV12 or an RGB format), lets colour decide the
    /// edges and the sensor's shadow strips (ColourEdges); without it the matte is depth alone.
    public func process(depth: ImageView, unitMM: Float, colour: ImageView? = nil, into alpha: ImageView) {
        precondition(depth.format == .z16 && depth.size == depthSize && depth.bytesPerRow % 2 == 0,
                     "matte: depth view does not match the engine")
        precondition(alpha.format == .alpha8 && alpha.size == alphaSize, "matte: alpha view does not match the engine")
        let unit = unitMM > 0 ? unitMM : 1
        let timer = stageTimes
        timer?.startFrame()
        let (workDepth, stride) = placeDepth(depth, unit: unit)
        timer?.mark(.depth)
        let (near, far) = band(depth: workDepth, stride: stride, unit: unit)
        timer?.mark(.band)
        floorTracker.update(depth: workDepth, stride: stride, width: workSize.width, height: workSize.height,
                            unit: unit, rayX: gridRayX, rayY: gridRayY)
        timer?.mark(.floorFit)
        markFloor(depth: workDepth, stride: stride, unit: unit)
        timer?.mark(.floorMarks)
        // Regions are judged on the whole band: fixed near..far, auto near..subject_max (everyone
        // in the booth area, not only the nearest person).
        let regionFar = parameters.mode == .auto
            ? Self.raw(parameters.subjectMaximumMM, unit: unit, roundUp: false) : far
        let regionNear = Self.raw(max(1, parameters.nearMM), unit: unit, roundUp: true)
        lastWork = Inspection(depth: workDepth, stride: stride, unit: unit, regionNear: regionNear, regionFar: regionFar,
                              feet: !floorMarksClear, pixelWidthMM: gridPixelMM)
        let segmented = segments.segment(depth: workDepth, stride: stride, unit: unit, near: regionNear, far: regionFar,
                                         minimumPixels: parameters.minimumBlobPixels, pixelWidthMM: gridPixelMM,
                                         into: classes, copy: nextPreviousDepth, feet: !floorMarksClear)
        lastWork?.segmented = segmented
        if !segmented {
            classify(depth: workDepth, stride: stride, near: near, far: far)
        }
        timer?.mark(.regions)
        let labelled = segmented
            ? labeller.label(classes: classes, paintedBy: segments, minimumBlob: parameters.minimumBlobPixels, into: mask)
            : labeller.label(classes: classes, minimumBlob: parameters.minimumBlobPixels, into: mask)
        lastWork?.labelled = labelled
        if !labelled {
            maskPerPixel()
        }
        timer?.mark(.labels)
        smoothTemporally(depth: workDepth, stride: stride, unit: unit, copied: segmented)
        timer?.mark(.temporal)
        if let colour, colour.size == alphaSize {
            edges.run(soft: softAlpha, classes: classes, colour: colour)
            timer?.mark(.colourEdges)
            colourFeather.run(source: edges.plane, radius: parameters.featherPixels, into: alpha)
            edges.restoreDecided(into: alpha)
        } else {
            feather.run(source: softAlpha, radius: parameters.featherPixels, into: alpha)
        }
        timer?.mark(.feather)
    }

    /// After `process`: the camera's background taken out of the colour of alpha's partial
    /// pixels (RimDecontamination), as a patch of those pixels alone (`rimPatch`), so the
    /// compositor can blend subject colour at the rim. `colour` (the frame `process` was given) is
    /// only read. Allocates nothing.
    public func decontaminate(colour: ImageView, alpha: ImageView) {
        precondition(colour.size == alphaSize && alpha.size == alphaSize,
                     "matte: decontamination views do not match the engine")
        stageTimes?.resume()
        decontamination.lookout = rimLookout
        decontamination.run(colour: colour, alpha: alpha)
        stageTimes?.mark(.decontamination)
    }

    /// How far a partial pixel looks for opaque and clear pixels: as far as the feather and the
    /// colour edges leave partial pixels from solid ones.
    var rimLookout: Int { 2 * min(AlphaFeather.maximumRadius, max(0, parameters.featherPixels)) + edges.reach + 2 }

    /// Pixels the last `decontaminate` recoloured (for tests and diagnostics).
    public var rimPixelCount: Int { decontamination.patch.count }

    /// The last `decontaminate`'s corrections, for a reader that lays them into its own copy of
    /// each row (the compositor); valid until the next `decontaminate` (see `PixelPatch`).
    public var rimPatch: PixelPatch { decontamination.patch.view }

    /// `decontaminate`, then `colour` copied into `output` (same format and size) with the patch
    /// laid in: the decontaminated frame as a whole, for tools and tests. `colour` is not written.
    public func decontaminate(colour: ImageView, alpha: ImageView, into output: ImageView) {
        precondition(output.size == alphaSize && output.format == colour.format,
                     "matte: decontamination views do not match the engine")
        decontaminate(colour: colour, alpha: alpha)
        stageTimes?.resume()
        let bytes = colour.format.minimumBytesPerRow(width: alphaSize.width)
        for y in 0..<alphaSize.height {
            output.row(y).copyMemory(from: UnsafeRawPointer(colour.row(y)), byteCount: bytes)
        }
        if let from = colour.chromaPlane, let to = output.chromaPlane {
            for y in 0..<((alphaSize.height + 1) / 2) {
                (to + y * output.bytesPerRow).copyMemory(from: UnsafeRawPointer(from + y * colour.bytesPerRow),
                                                         byteCount: bytes)
            }
        }
        decontamination.patch.write(into: output)
        stageTimes?.mark(.decontamination)
    }

    // MARK: stage 1

    @inline(never)
    private func placeDepth(_ depth: ImageView, unit: Float) -> (UnsafePointer<UInt16>, Int) {
        let source = UnsafePointer(depth.base.assumingMemoryBound(to: UInt16.self))
        let sourceStride = depth.bytesPerRow / 2
        if directDepth { return (source, sourceStride) }
        let width = workSize.width
        if let reprojection {
            reprojection.run(source: source, stride: sourceStride, unit: unit, into: ownDepth)
        } else {
            for y in 0..<workSize.height {
                let from = source + Int(resampleRows[y]) * sourceStride
                let to = ownDepth + y * width
                for x in 0..<width { to[x] = from[Int(resampleColumns[x])] }
            }
        }
        return (UnsafePointer(ownDepth), width)
    }

    // MARK: stage 2

    /// The foreground band in raw units, inclusive; empty (far < near) when auto mode has no subject.
    @inline(never)
    private func band(depth: UnsafePointer<UInt16>, stride: Int, unit: Float) -> (UInt16, UInt16) {
        var nearMM = max(1, parameters.nearMM)
        var farMM = parameters.farMM
        if parameters.mode == .auto {
            tracker.observe(depth: depth, rowStride: stride, size: workSize, unitMM: unit, parameters: parameters)
            if let subject = tracker.trackedMM {
                farMM = subject + max(0, parameters.marginMM)
            } else {
                nearMM = 2
                farMM = 1
            }
        }
        return (Self.raw(nearMM, unit: unit, roundUp: true), Self.raw(farMM, unit: unit, roundUp: false))
    }

    private static func raw(_ millimetres: Int, unit: Float, roundUp: Bool) -> UInt16 {
        // Integer truncation instead of rounded(.up/.down): those call libm, which the
        // firmware does not link.
        let value = max(0, min(65535, Float(millimetres) / unit))
        let whole = UInt16(value)
        return roundUp && Float(whole) < value ? whole + 1 : whole
    }

    // MARK: stage 3

    /// Marks the floor's readings for DepthSegments: within a few centimetres of the plane
    /// (20 mm + z^2 / 400 m, growing with the sensor's step: 36 mm at 2.5 m), or below it; 2 for
    /// those more than 12 mm + z / 400 above it (the foot zone), 1 for the rest.
    @inline(never)
    private func markFloor(depth: UnsafePointer<UInt16>, stride: Int, unit: Float) {
        let width = workSize.width
        let marks = segments.floor
        guard let plane = floorTracker.plane else {
            // No floor in view is a steady state (a booth framed above the floor): the marks
            // are cleared once, not rewritten every frame. Only this function writes them.
            if !floorMarksClear { marks.update(repeating: 0, count: workSize.pixelCount) }
            floorMarksClear = true
            return
        }
        floorMarksClear = false
        for y in 0..<workSize.height {
            let row = depth + y * stride
            let out = marks + y * width
            let rowTerm = plane.ny * gridRayY[y] + plane.nz
            for x in 0..<width {
                let z = Float(row[x]) * unit
                let distance = z * (plane.nx * gridRayX[x] + rowTerm) - plane.offset
                let tolerance = 20 + z * z * (1 / 400_000)
                // Readings a little above the floor may be a shoe: DepthSegments gives them to
                // a person standing on them, and only then.
                let foot = 12 + z * (1 / 400)
                out[x] = row[x] == 0 || distance < -tolerance ? 0 : distance < -foot ? 2 : 1
            }
        }
    }

    @inline(never)
    private func classify(depth: UnsafePointer<UInt16>, stride: Int, near: UInt16, far: UInt16) {
        let width = workSize.width
        // One unsigned compare decides the band (values below `near`, 0 included, wrap above
        // the span); written branch-free so the compiler vectorises it.
        let span = far >= near ? far &- near : 0
        let bandOpen: UInt8 = far >= near ? 1 : 0
        for y in 0..<workSize.height {
            let from = depth + y * stride
            let to = classes + y * width
            for x in 0..<width {
                let d = from[x]
                let inBand: UInt8 = (d &- near) <= span ? 2 : 0
                let hole: UInt8 = d == 0 ? 1 : 0
                to[x] = (inBand & (bandOpen &* 2)) | hole
            }
        }
    }

    /// Fallback for frames too noisy to label: the band alone, holes out.
    @inline(never)
    private func maskPerPixel() {
        for i in 0..<workSize.pixelCount {
            mask[i] = classes[i] == RunLabeller.foreground ? 255 : 0
        }
    }

    // MARK: stage 5

    /// Moves the previous alpha toward this frame's mask by (100 - temporalPercent) % where the
    /// scene is steady, and takes the new mask outright where it moved. Steady: the pixel's depth
    /// barely changed, or it changed alone (a flying pixel, a dropout: at most 2 of its 3x3
    /// neighbourhood); a moving edge changes a band at least a pixel wide, 3 of 9, and is followed
    /// at once, never dragged behind. Only pixels whose mask differs from the current alpha are
    /// visited, a small fraction. `copied`: this frame's depth is in `nextPreviousDepth` already
    /// (DepthSegments wrote it), so keeping it for the next frame is a swap, not a copy.
    @inline(never)
    private func smoothTemporally(depth: UnsafePointer<UInt16>, stride: Int, unit: Float, copied: Bool) {
        let width = workSize.width
        let height = workSize.height
        let weight = min(95, max(0, parameters.temporalPercent))
        let blend = hasPrevious && weight > 0 && previousUnit == unit
        if !blend {
            softAlpha.copyElements(from: mask, count: workSize.pixelCount)
        } else {
            let keep = 256 - weight * 256 / 100
            let base = max(1, min(1000, Int(20 / unit)))
            Self.blendTowardMask(mask: mask, soft: softAlpha, depth: depth, stride: stride, previous: previousDepth,
                                 width: width, height: height, keep: keep, base: base)
        }
        if copied {
            swap(&previousDepth, &nextPreviousDepth)
        } else {
            for y in 0..<height {
                (previousDepth + y * width).copyElements(from: depth + y * stride, count: width)
            }
        }
        hasPrevious = true
        previousUnit = unit
    }

    /// The blend of `smoothTemporally` (`previous` packed, `depth` rows `stride` apart; `keep` of
    /// 256 is the step toward the mask, `base` the steady depth change in raw units). Alpha equals
    /// the mask almost everywhere, so rows are compared 64 bytes at a time in lanes and only the
    /// differing bytes are visited, found from the difference's set bits.
    static func blendTowardMask(mask: UnsafePointer<UInt8>, soft: UnsafeMutablePointer<UInt8>,
                                depth: UnsafePointer<UInt16>, stride: Int, previous: UnsafePointer<UInt16>,
                                width: Int, height: Int, keep: Int, base: Int) {
        @inline(__always) func changed(_ x: Int, _ y: Int) -> Bool {
            let d = Int(depth[y * stride + x])
            let p = Int(previous[y * width + x])
            return abs(d - p) > base + (max(d, p) >> 5)
        }
        @inline(__always) func visit(_ x: Int, _ y: Int, _ soft: UnsafeMutablePointer<UInt8>, _ m: Int) {
            let a = Int(soft[x])
            // The pixel itself, then its 3x3 neighbourhood.
            var moved = 0
            if changed(x, y) {
                moved = 1
                neighbourhood: for yy in max(0, y - 1)...min(height - 1, y + 1) {
                    for xx in max(0, x - 1)...min(width - 1, x + 1) where (xx != x || yy != y) && changed(xx, yy) {
                        moved += 1
                        if moved > 2 { break neighbourhood }
                    }
                }
            }
            if moved <= 2 {
                // Rounded up so the blend always reaches the mask, never stalls.
                let step = ((m > a ? m - a : a - m) * keep + 255) >> 8
                soft[x] = UInt8(m > a ? a + step : a - step)
            } else {
                soft[x] = UInt8(m)
            }
        }
        // Nonzero exactly in the lanes where the bytes differ (`^` on 32 lanes became a per-lane
        // loop; sixteen-lane `&-` and `|` are one instruction each).
        @inline(__always) func difference(_ fresh: UnsafePointer<UInt8>, _ soft: UnsafeMutablePointer<UInt8>,
                                          _ x: Int) -> SIMD16<UInt8> {
            UnsafeRawPointer(fresh + x).loadUnaligned(as: SIMD16<UInt8>.self)
                &- UnsafeRawPointer(soft + x).loadUnaligned(as: SIMD16<UInt8>.self)
        }
        // Out of line: inlined, the columns its visits derive from `x` became a dozen counters
        // stepped on every 64 bytes of the scan, differences or not.
        @inline(never) func visitDifferences(_ from: Int, _ count: Int, _ y: Int) {
            let fresh = mask + y * width
            let softRow = soft + y * width
            var x = from
            while x < from &+ count {
                let words = unsafeBitCast(difference(fresh, softRow, x), to: SIMD2<UInt64>.self)
                for half in 0..<2 {
                    var bits = words[half]
                    while bits != 0 {
                        let lane = bits.trailingZeroBitCount &>> 3
                        let column = x &+ half &* 8 &+ lane
                        visit(column, y, softRow, Int(fresh[column]))
                        bits &= ~(UInt64(0xFF) &<< UInt64(lane &* 8))
                    }
                }
                x &+= 16
            }
        }
        for y in 0..<height {
            let fresh = mask + y * width
            let softRow = soft + y * width
            var x = 0
            // 64 bytes a step, tested as one OR: alpha equals the mask almost everywhere.
            while x &+ 64 <= width {
                let d0 = difference(fresh, softRow, x)
                let d1 = difference(fresh, softRow, x &+ 16)
                let d2 = difference(fresh, softRow, x &+ 32)
                let d3 = difference(fresh, softRow, x &+ 48)
                if !((d0 | d1) | (d2 | d3)).isAllZero { visitDifferences(x, 64, y) }
                x &+= 64
            }
            while x &+ 16 <= width {
                if !difference(fresh, softRow, x).isAllZero { visitDifferences(x, 16, y) }
                x &+= 16
            }
            while x < width {
                if fresh[x] != softRow[x] { visit(x, y, softRow, Int(fresh[x])) }
                x += 1
            }
        }
    }
}
