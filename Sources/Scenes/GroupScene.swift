import Frames

/// The hard scene for the matte: a group of people standing on a floor in front of a wall with
/// posters, rendered as a depth camera and a colour camera would see them, with the truth mask.
///
/// What makes it hard, each on purpose:
///  - a floor under the feet (camera 1.25 m above it, looking level), seen from about 2.3 m to the
///    wall: it lies in any depth band the people do, and touches their shoes;
///  - three people at different depths (about 2.3, 2.5 and 2.9 m), the far one partly hidden by the
///    near ones, each with legs, feet, an arm akimbo (an enclosed gap) and fingers;
///  - thin structures: strands of hair and fingers a pixel or two wide, in the truth and the colour
///    but mostly missed by depth;
///  - the depth sensor's faults (`DepthSensorModel`): shadow strips beside each depth edge, noise
///    and quantisation that grow with distance, flying pixels, dropouts;
///  - optionally unregistered depth: the depth camera beside the colour camera with another field of
///    view and resolution (`unregistered`).
/// With `moving`, the nearest person walks sideways at `walkMMPerSecond` (1 m/s by default) and the
/// others sway; otherwise everyone holds still and only sensor noise changes.
///
/// Everything follows from `seed` and the frame index. Rendering allocates nothing (scratch made in
/// `init`). Not thread-safe.
public final class GroupScene {
    public let seed: UInt64
    public let colourSize: FrameSize
    public let depthSize: FrameSize
    public let colourCamera: PinholeIntrinsics
    public let depthCamera: PinholeIntrinsics
    /// The colour camera's optical centre in the depth camera's frame, millimetres.
    public let colourOffsetMM: SIMD3<Float>
    public var registered: Bool { colourOffsetMM == SIMD3<Float>(0, 0, 0) && colourCamera == depthCamera.scaled(
        x: Float(colourSize.width) / Float(depthSize.width), y: Float(colourSize.height) / Float(depthSize.height)) }
    public var frameRate: Int = 30
    public var moving = true
    public var walkMMPerSecond: Float = 1000

    /// Floor height below the camera (y down), and the wall's distance, millimetres.
    public static let floorMM: Float = 1250
    public static let wallMM: Float = 4600

    static let peopleCount = 3
    static let shapesPerPerson = 24
    static let shapeCapacity = peopleCount * shapesPerPerson

    private let raster: ShapeRaster
    private let cleanRow: UnsafeMutablePointer<Float>
    private let rgbRow: UnsafeMutablePointer<UInt8>
    private var sensor: DepthSensorModel

    /// Registered depth at `depthSize` (default: the colour size).
    public convenience init(seed: UInt64 = 1, colourSize: FrameSize, depthSize: FrameSize? = nil) {
        let depth = depthSize ?? colourSize
        let colour = SyntheticCamera.typical(width: colourSize.width, height: colourSize.height)
        self.init(seed: seed, colourSize: colourSize, colourCamera: colour, depthSize: depth,
                  depthCamera: colour.scaled(x: Float(depth.width) / Float(colourSize.width),
                                             y: Float(depth.height) / Float(colourSize.height)),
                  colourOffsetMM: SIMD3<Float>(0, 0, 0))
    }

    /// Unregistered depth like a stereo module's: 4/5 of the colour resolution, a wider field of
    /// view (about 86 degrees against the colour camera's 69) and the colour camera 30 mm to the
    /// right of the depth camera.
    public static func unregistered(seed: UInt64 = 1, colourSize: FrameSize) -> GroupScene {
        let depthSize = FrameSize(width: colourSize.width * 4 / 5, height: colourSize.height * 4 / 5)
        let colour = SyntheticCamera.typical(width: colourSize.width, height: colourSize.height)
        let focal = Float(depthSize.width) * 0.54
        let depth = PinholeIntrinsics(fx: focal, fy: focal, cx: Float(depthSize.width - 1) / 2 + 3,
                                      cy: Float(depthSize.height - 1) / 2 - 2)
        return GroupScene(seed: seed, colourSize: colourSize, colourCamera: colour, depthSize: depthSize,
                          depthCamera: depth, colourOffsetMM: SIMD3<Float>(30, 0, 0))
    }

    public init(seed: UInt64, colourSize: FrameSize, colourCamera: PinholeIntrinsics, depthSize: FrameSize,
                depthCamera: PinholeIntrinsics, colourOffsetMM: SIMD3<Float>) {
        self.seed = seed
        self.colourSize = colourSize
        self.depthSize = depthSize
        self.colourCamera = colourCamera
        self.depthCamera = depthCamera
        self.colourOffsetMM = colourOffsetMM
        raster = ShapeRaster(capacity: Self.shapeCapacity, colourCamera: colourCamera, depthCamera: depthCamera,
                             colourOffsetMM: colourOffsetMM)
        cleanRow = .allocate(capacity: depthSize.width)
        cleanRow.initialize(repeating: 0, count: depthSize.width)
        rgbRow = .allocate(capacity: colourSize.width * 3)
        rgbRow.initialize(repeating: 0, count: colourSize.width * 3)
        sensor = DepthSensorModel(seed: seed, focal: depthCamera.fx)
    }

    deinit {
        cleanRow.deallocate()
        rgbRow.deallocate()
    }

    /// Frame `frame`: `color` .rgb24 of colourSize, `depth` .z16 of depthSize in millimetres
    /// (0 = no reading), `truth` (optional) .alpha8 of colourSize, 255 on the people.
    /// `thin`, when given (.alpha8 of colourSize), gets the truth of the thin structures alone:
    /// the hair strands and fingers (shapes at most 20 mm across), for scoring the matte on them.
    public func render(frame: Int, color: ImageView, depth: ImageView, truth: ImageView?, thin: ImageView? = nil) {
        precondition(color.size == colourSize && color.format == .rgb24)
        precondition(depth.size == depthSize && depth.format == .z16)
        let time = moving ? Float(frame) / Float(max(1, frameRate)) : 0
        raster.removeAll()
        // Nearest first does not matter: depth decides.
        addPerson(x: -650 + walkMMPerSecond * time, z: 2300, height: 1750, phase: time, look: 0)
        addPerson(x: 820, z: 2500, height: 1820, phase: time + 0.9, look: 1)
        addPerson(x: 120, z: 2900, height: 1650, phase: time + 1.7, look: 2)
        renderDepth(frame: frame, into: depth)
        renderColour(into: color, truth: truth, thin: thin)
    }

    // MARK: people

    private func add(_ shape: SyntheticShape) { raster.add(shape) }

    /// One person standing with feet on the floor at lateral `x`, depth `z`; `phase` sways the
    /// free arm; `look` picks the clothes.
    private func addPerson(x x0: Float, z z0: Float, height h: Float, phase: Float, look: UInt8) {
        let floor = Self.floorMM
        let top = floor - h
        let shirt: SyntheticShape.Paint = look == 0 ? .shirt : look == 1 ? .sleeve : .jumper
        let head = SyntheticShape(centre: (x0, top + 0.065 * h), radii: (0.05 * h, 0.066 * h), z: z0 - 30,
                                  bulge: 60, paint: .head)
        add(head)
        // Hair: strands standing out of the crown and the sides, 14 mm thick.
        let crown = (x0, head.centreY - head.radiusY * 0.85)
        for (dx, dy) in [(Float(-0.9), Float(-0.5)), (-0.35, -1.0), (0.3, -1.0), (0.95, -0.4)] {
            let root = (crown.0 + dx * head.radiusX * 0.7, crown.1 + 20 + dy * 10)
            add(SyntheticShape(from: root, to: (root.0 + dx * 55, root.1 + dy * 45), thickness: 14, z: z0 - 35,
                               paint: .hair))
        }
        add(SyntheticShape(centre: (x0, top + 0.15 * h), radii: (0.03 * h, 0.04 * h), z: z0 - 10, bulge: 20,
                           paint: .skin))
        let torso = SyntheticShape(centre: (x0, top + 0.36 * h), radii: (0.125 * h, 0.2 * h), z: z0, bulge: 80,
                                   paint: shirt)
        add(torso)
        let shoulderY = top + 0.2 * h
        let hipY = top + 0.53 * h
        // Legs to the floor, shoes resting on it and pointing at the camera.
        for side in [Float(-1), 1] {
            let hip = (x0 + side * 0.06 * h, hipY)
            let ankle = (x0 + side * 0.09 * h, floor - 60)
            add(SyntheticShape(from: hip, to: ankle, thickness: 0.075 * h, z: z0 + 10, paint: .trousers))
            add(SyntheticShape(centre: (ankle.0 + side * 10, floor - 45), radii: (60, 45), z: z0 - 70, bulge: 30,
                               paint: .shoe))
        }
        // Right arm akimbo (hand on the hip, so arm and torso enclose a gap), left arm hanging
        // and swinging a little, with fingers.
        let swing = 0.15 * GroupScene.sine(6.2831853 * phase / 1.6)
        let rightShoulder = (x0 + 0.095 * h, shoulderY + 25)
        let rightElbow = (x0 + 0.24 * h, top + 0.36 * h)
        let rightHand = (x0 + 0.135 * h, hipY - 0.02 * h)
        add(SyntheticShape(from: rightShoulder, to: rightElbow, thickness: 0.055 * h, z: z0 - 10, paint: shirt))
        add(SyntheticShape(from: rightElbow, to: rightHand, thickness: 0.045 * h, z: z0 - 30, paint: .skin))
        let leftShoulder = (x0 - 0.095 * h, shoulderY + 25)
        let leftElbow = (x0 - 0.155 * h - swing * 60, top + 0.37 * h)
        let leftWrist = (x0 - 0.17 * h - swing * 200, top + 0.52 * h)
        add(SyntheticShape(from: leftShoulder, to: leftElbow, thickness: 0.055 * h, z: z0 - 10, paint: shirt))
        add(SyntheticShape(from: leftElbow, to: leftWrist, thickness: 0.042 * h, z: z0 - 40, paint: .skin))
        add(SyntheticShape(centre: (leftWrist.0, leftWrist.1 + 40), radii: (40, 50), z: z0 - 45, bulge: 15,
                           paint: .skin))
        for finger in 0..<4 {
            let fx = leftWrist.0 - 27 + Float(finger) * 18
            add(SyntheticShape(from: (fx, leftWrist.1 + 70), to: (fx + Float(finger - 2) * 6, leftWrist.1 + 140),
                               thickness: 15, z: z0 - 45, paint: .skin))
        }
    }

    // MARK: depth

    /// Clean depth-camera Z of the room (floor and wall) along a ray with y/z = `ry`.
    @inline(__always)
    private func roomDepth(ry: Float, offset: SIMD3<Float>) -> Float {
        let wall = Self.wallMM + offset.z
        // Floor y = floorMM in the colour frame is y = floorMM + offset.y in the depth frame.
        guard ry > 0 else { return wall }
        return min(wall, (Self.floorMM + offset.y) / ry)
    }

    @inline(never)
    private func renderDepth(frame: Int, into depth: ImageView) {
        let width = depthSize.width
        let camera = depthCamera
        let offset = colourOffsetMM
        sensor.startFrame(frame, size: depthSize)
        for v in 0..<depthSize.height {
            let ry = (Float(v) - camera.cy) / camera.fy
            let room = roomDepth(ry: ry, offset: offset)
            for u in 0..<width { cleanRow[u] = room }
            raster.depthRow(v, into: cleanRow, width: width)
            sensor.measure(row: v, clean: cleanRow, width: width,
                           into: depth.row(v).assumingMemoryBound(to: UInt16.self))
        }
    }

    // MARK: colour and truth

    @inline(never)
    private func renderColour(into color: ImageView, truth: ImageView?, thin: ImageView?) {
        let width = colourSize.width
        let camera = colourCamera
        let inverseFx = 1 / camera.fx
        for y in 0..<colourSize.height {
            let ry = (Float(y) - camera.cy) / camera.fy
            let room = roomDepth(ry: ry, offset: SIMD3<Float>(0, 0, 0))
            let onFloor = room < Self.wallMM
            let truthRow = truth.map { $0.row(y).assumingMemoryBound(to: UInt8.self) }
            truthRow?.update(repeating: 0, count: width)
            let thinRow = thin.map { $0.row(y).assumingMemoryBound(to: UInt8.self) }
            thinRow?.update(repeating: 0, count: width)
            for x in 0..<width {
                let rx = (Float(x) - camera.cx) * inverseFx
                let (hit, hitRadius) = raster.hit(x: x, y: y, rx: rx, ry: ry, nearerThan: room)
                var rgb: SIMD3<Float>
                if hit >= 0 {
                    let shape = raster.shape(hit)
                    rgb = Self.paint(shape, x: rx * shape.z, y: ry * shape.z) * (1 - 0.3 * hitRadius)
                    truthRow?[x] = 255
                    if min(shape.radiusX, shape.radiusY) <= 10 { thinRow?[x] = 255 }
                } else if onFloor {
                    rgb = Self.floorColour(x: rx * room, z: room)
                } else {
                    rgb = Self.wallColour(x: rx * Self.wallMM, y: ry * Self.wallMM)
                }
                rgbRow[3 * x] = UInt8(max(0, min(255, rgb.x)))
                rgbRow[3 * x + 1] = UInt8(max(0, min(255, rgb.y)))
                rgbRow[3 * x + 2] = UInt8(max(0, min(255, rgb.z)))
            }
            color.row(y).assumingMemoryBound(to: UInt8.self).copyElements(from: rgbRow, count: width * 3)
        }
    }

    private static func paint(_ shape: SyntheticShape, x: Float, y: Float) -> SIMD3<Float> {
        switch shape.paint {
        case .shirt:
            return modulo(y, 70) < 15 ? SIMD3<Float>(235, 235, 240) : SIMD3<Float>(40, 90, 200)
        case .sleeve:
            return SIMD3<Float>(150, 200, 150)
        case .jumper:
            return SIMD3<Float>(200, 190, 170)
        case .skin:
            return SIMD3<Float>(225, 175, 145)
        case .head:
            let hair = (y - shape.centreY) / shape.radiusY < -0.3
            return hair ? SIMD3<Float>(70, 50, 35) : SIMD3<Float>(225, 175, 145)
        case .hair:
            return SIMD3<Float>(70, 50, 35)
        case .trousers:
            return SIMD3<Float>(50, 60, 90)
        case .shoe:
            return SIMD3<Float>(30, 30, 30)
        }
    }

    /// Pale plaster with posters, one of them the colour of the nearest person's shirt, and one
    /// the beige of the far person's jumper: colour alone cannot separate them.
    private static func wallColour(x: Float, y: Float) -> SIMD3<Float> {
        if x > -1500 && x < -900 && y > -900 && y < -100 { return SIMD3<Float>(40, 90, 200) }
        if x > 300 && x < 1100 && y > -1300 && y < -500 { return SIMD3<Float>(200, 190, 170) }
        if x > 1400 && x < 1900 && y > -600 && y < 200 { return SIMD3<Float>(180, 40, 50) }
        let tint = (modulo(x * 0.37 + y * 0.61, 97) - 48) * 0.08
        return SIMD3<Float>(214 + tint, 210 + tint, 198 + tint)
    }

    /// Beige tiles 400 mm square with darker grout.
    private static func floorColour(x: Float, z: Float) -> SIMD3<Float> {
        if modulo(x, 400) < 12 || modulo(z, 400) < 12 { return SIMD3<Float>(150, 140, 120) }
        return SIMD3<Float>(205, 190, 160)
    }

    private static func modulo(_ value: Float, _ period: Float) -> Float {
        value - SyntheticScene.floor(value / period) * period
    }

    static func sine(_ angle: Float) -> Float { SyntheticScene.sine(angle) }
}
