import Frames
import KernelIO

/// A person in front of a brick wall, rendered as a depth camera and a colour camera would see
/// them, with the ground-truth mask: the test bench for the matte and the stand-in camera of
/// `backdrop demo`.
///
/// The person (head, neck, torso, two arms, the left hand on the hip so the arm encloses a gap)
/// stands about 1.2 m away, sways side to side and a little in depth; the wall is at 3 m. Depth
/// carries what real stereo/structured-light sensors add: noise growing with distance,
/// quantisation that is uniform in disparity (coarser with distance), shadow holes beside depth
/// edges, flying pixels between subject and wall, and a few random dropouts. Everything comes
/// from `seed` and the frame index, so frame i is the same whenever and on whichever machine it
/// is rendered.
///
/// Rendering allocates nothing; scratch rows are made in `init`. Not thread-safe: one renderer
/// per thread. The wall image is as large as the colour camera (192 MiB at the 8192x8192 the
/// schema allows) and comes from the fallible funnel: product code makes a scene with
/// `allocating`, which throws ENOMEM when that memory is not there; the rows are at most a few
/// times the camera's width (the schema's 8192, `--size`'s 16384), like any small allocation.
public final class SyntheticScene {
    public let seed: UInt64
    public let colourSize: FrameSize
    public let depthSize: FrameSize
    public let colourCamera: PinholeIntrinsics
    public let depthCamera: PinholeIntrinsics
    /// The colour camera's optical centre in the depth camera's frame, millimetres (zero when the
    /// depth is registered to colour).
    public let colourOffsetMM: SIMD3<Float>
    public var frameRate: Int = 30
    /// false: the person holds still (sensor noise still changes frame to frame).
    public var moving = true
    /// false: depth is exact (for geometric tests).
    public var noisy = true
    /// Fixed: the wall's colour image is rendered once, in init.
    public let wallMM: Float = 3000
    public var subjectMM: Float = 1200

    static let shapeCapacity = 8
    static let blobCount = 4
    /// Baseline between the depth sensor's imager and its projector, as seen in the shadows.
    static let shadowBaselineMM: Float = 25
    /// Baseline of the disparity quantiser: 1/8 pixel steps at this baseline.
    static let quantiserBaselineMM: Float = 50

    private let raster: ShapeRaster
    private var sensor: DepthSensorModel
    private let cleanRow: UnsafeMutablePointer<Float>
    private let rgbRow: UnsafeMutablePointer<UInt8>
    /// The wall as the colour camera sees it, RGB, rendered once.
    private let wallBuffer: AlignedBuffer
    private var wallImage: UnsafeMutablePointer<UInt8> { wallBuffer.typed(UInt8.self) }

    /// Depth registered to colour: the depth camera is the colour camera at depth resolution.
    public static func allocating(seed: UInt64 = 1, colourSize: FrameSize,
                                  depthSize: FrameSize? = nil) throws(SystemError) -> SyntheticScene {
        let cameras = registeredCameras(colourSize: colourSize, depthSize: depthSize ?? colourSize)
        return SyntheticScene(seed: seed, colourSize: colourSize, colourCamera: cameras.colour,
                              depthSize: depthSize ?? colourSize, depthCamera: cameras.depth,
                              colourOffsetMM: SIMD3<Float>(0, 0, 0), wall: try wallMemory(colourSize))
    }

    /// Depth not registered: two pinholes and where the colour camera sits in the depth frame.
    public static func allocating(seed: UInt64, colourSize: FrameSize, colourCamera: PinholeIntrinsics,
                                  depthSize: FrameSize, depthCamera: PinholeIntrinsics,
                                  colourOffsetMM: SIMD3<Float>) throws(SystemError) -> SyntheticScene {
        SyntheticScene(seed: seed, colourSize: colourSize, colourCamera: colourCamera, depthSize: depthSize,
                       depthCamera: depthCamera, colourOffsetMM: colourOffsetMM, wall: try wallMemory(colourSize))
    }

    /// For tests only (SPI: product code cannot reach it), like `PixelBuffer(format:size:)`: a
    /// test's scene whose memory cannot be had stops the test.
    @_spi(Testing)
    public convenience init(seed: UInt64 = 1, colourSize: FrameSize, depthSize: FrameSize? = nil) {
        let cameras = Self.registeredCameras(colourSize: colourSize, depthSize: depthSize ?? colourSize)
        self.init(seed: seed, colourSize: colourSize, colourCamera: cameras.colour, depthSize: depthSize ?? colourSize,
                  depthCamera: cameras.depth, colourOffsetMM: SIMD3<Float>(0, 0, 0))
    }

    /// For tests only (SPI), as above.
    @_spi(Testing)
    public convenience init(seed: UInt64, colourSize: FrameSize, colourCamera: PinholeIntrinsics, depthSize: FrameSize,
                            depthCamera: PinholeIntrinsics, colourOffsetMM: SIMD3<Float>) {
        let wall: AlignedBuffer
        do throws(SystemError) { wall = try Self.wallMemory(colourSize) } catch { fatalError(error.message) }
        self.init(seed: seed, colourSize: colourSize, colourCamera: colourCamera, depthSize: depthSize,
                  depthCamera: depthCamera, colourOffsetMM: colourOffsetMM, wall: wall)
    }

    private static func wallMemory(_ colourSize: FrameSize) throws(SystemError) -> AlignedBuffer {
        try AlignedBuffer(byteCount: colourSize.pixelCount * 3)
    }

    private static func registeredCameras(colourSize: FrameSize,
                                          depthSize depth: FrameSize) -> (colour: PinholeIntrinsics, depth: PinholeIntrinsics) {
        let colourCamera = SyntheticCamera.typical(width: colourSize.width, height: colourSize.height)
        let sx = Float(depth.width) / Float(colourSize.width)
        let sy = Float(depth.height) / Float(colourSize.height)
        let depthCamera = PinholeIntrinsics(fx: colourCamera.fx * sx, fy: colourCamera.fy * sy,
                                          cx: (colourCamera.cx + 0.5) * sx - 0.5,
                                          cy: (colourCamera.cy + 0.5) * sy - 0.5)
        return (colourCamera, depthCamera)
    }

    private init(seed: UInt64, colourSize: FrameSize, colourCamera: PinholeIntrinsics, depthSize: FrameSize,
                 depthCamera: PinholeIntrinsics, colourOffsetMM: SIMD3<Float>, wall: consuming AlignedBuffer) {
        self.seed = seed
        self.colourSize = colourSize
        self.depthSize = depthSize
        self.colourCamera = colourCamera
        self.depthCamera = depthCamera
        self.colourOffsetMM = colourOffsetMM
        raster = ShapeRaster(capacity: Self.shapeCapacity, colourCamera: colourCamera, depthCamera: depthCamera,
                             colourOffsetMM: colourOffsetMM)
        sensor = DepthSensorModel(seed: seed, focal: depthCamera.fx, shadowBaselineMM: Self.shadowBaselineMM,
                                  quantiserBaselineMM: Self.quantiserBaselineMM, blobCount: Self.blobCount)
        cleanRow = .allocate(capacity: depthSize.width)
        cleanRow.initialize(repeating: 0, count: depthSize.width)
        rgbRow = .allocate(capacity: colourSize.width * 3 + 6)
        rgbRow.initialize(repeating: 0, count: colourSize.width * 3 + 6)
        wallBuffer = wall
        let wallImage = wallBuffer.typed(UInt8.self)
        for y in 0..<colourSize.height {
            let ry = (Float(y) - colourCamera.cy) / colourCamera.fy
            for x in 0..<colourSize.width {
                let rx = (Float(x) - colourCamera.cx) / colourCamera.fx
                let rgb = Self.wall(x: rx * wallMM, y: ry * wallMM)
                let pixel = wallImage + 3 * (y * colourSize.width + x)
                pixel[0] = UInt8(max(0, min(255, rgb.x)))
                pixel[1] = UInt8(max(0, min(255, rgb.y)))
                pixel[2] = UInt8(max(0, min(255, rgb.z)))
            }
        }
    }

    deinit {
        cleanRow.deallocate()
        rgbRow.deallocate()
    }

    /// Renders frame `frame` (time frame / frameRate). `color` is .yuyv, .nv12 or .rgb24 of
    /// colourSize (YUV as BT.601 limited range); `depth` is .z16 of depthSize in millimetres,
    /// 0 = no reading; `truth`, if given, .alpha8 of colourSize: 255 on the person, 0 elsewhere.
    public func render(frame: Int, color: ImageView, depth: ImageView, truth: ImageView?) {
        precondition(color.size == colourSize && depth.size == depthSize && depth.format == .z16)
        precondition(color.format == .yuyv || color.format == .nv12 || color.format == .rgb24)
        pose(time: moving ? Float(frame) / Float(max(1, frameRate)) : 0)
        renderDepth(frame: frame, into: depth)
        renderColour(into: color, truth: truth)
    }

    // MARK: the person

    private func pose(time: Float) {
        let twoPi: Float = 6.2831853
        let x0 = 350 * Self.sine(twoPi * time / 4)
        let z0 = subjectMM + 120 * Self.sine(twoPi * time / 6 + 0.7)
        let swing = 0.3 + 0.25 * Self.sine(twoPi * time / 2.5)
        let torso = SyntheticShape(centre: (x0, 280), radii: (220, 420), z: z0, bulge: 80, paint: .shirt)
        let neck = SyntheticShape(centre: (x0, -100), radii: (55, 70), z: z0 + 10, bulge: 20, paint: .skin)
        let head = SyntheticShape(centre: (x0, -250), radii: (95, 125), z: z0 - 20, bulge: 60, paint: .head)
        let rightElbow = (x0 + 300, Float(190))
        let rightHand = (rightElbow.0 + 240 * Self.sine(swing), rightElbow.1 + 240 * Self.sine(swing + 1.5707964))
        let leftElbow = (x0 - 380, Float(150))
        raster.removeAll()
        raster.add(torso)
        raster.add(neck)
        raster.add(head)
        raster.add(SyntheticShape(from: (x0 + 170, -50), to: rightElbow, thickness: 95, z: z0 - 20, paint: .sleeve))
        raster.add(SyntheticShape(from: rightElbow, to: rightHand, thickness: 80, z: z0 - 70, paint: .skin))
        raster.add(SyntheticShape(from: (x0 - 150, -40), to: leftElbow, thickness: 95, z: z0 - 20, paint: .sleeve))
        raster.add(SyntheticShape(from: leftElbow, to: (x0 - 205, 330), thickness: 80, z: z0 - 40, paint: .skin))
    }

    // MARK: depth

    @inline(never)
    private func renderDepth(frame: Int, into depth: ImageView) {
        let width = depthSize.width
        let wall = wallMM + colourOffsetMM.z
        sensor.startFrame(frame, size: depthSize)
        for v in 0..<depthSize.height {
            let row = depth.row(v).assumingMemoryBound(to: UInt16.self)
            for u in 0..<width { cleanRow[u] = wall }
            raster.depthRow(v, into: cleanRow, width: width)
            if noisy {
                sensor.measure(row: v, clean: cleanRow, width: width, into: row)
            } else {
                for u in 0..<width { row[u] = UInt16(min(65535, cleanRow[u] + 0.5)) }
            }
        }
    }

    // MARK: colour and truth

    @inline(never)
    private func renderColour(into color: ImageView, truth: ImageView?) {
        let width = colourSize.width
        let camera = colourCamera
        let inverseFx = 1 / camera.fx
        for y in 0..<colourSize.height {
            let ry = (Float(y) - camera.cy) / camera.fy
            // The wall never moves: start from its pre-rendered row, then paint only the columns
            // the person's shapes can reach on this row.
            rgbRow.copyElements(from: wallImage + y * width * 3, count: width * 3)
            let truthRow = truth.map { $0.row(y).assumingMemoryBound(to: UInt8.self) }
            truthRow?.update(repeating: 0, count: width)
            let (first, last) = raster.colourColumns(row: y, width: width)
            if first <= last {
                for x in first...last {
                    let rx = (Float(x) - camera.cx) * inverseFx
                    let (hit, hitRadius) = raster.hit(x: x, y: y, rx: rx, ry: ry, nearerThan: .infinity)
                    if hit < 0 { continue }
                    let shape = raster.shape(hit)
                    let rgb = Self.paint(shape, x: rx * shape.z, y: ry * shape.z) * (1 - 0.3 * hitRadius)
                    rgbRow[3 * x] = UInt8(max(0, min(255, rgb.x)))
                    rgbRow[3 * x + 1] = UInt8(max(0, min(255, rgb.y)))
                    rgbRow[3 * x + 2] = UInt8(max(0, min(255, rgb.z)))
                    truthRow?[x] = 255
                }
            }
            pack(row: y, into: color)
        }
    }

    private static func paint(_ shape: SyntheticShape, x: Float, y: Float) -> SIMD3<Float> {
        switch shape.paint {
        case .shirt:
            let stripe = modulo(y, 70) < 15
            return stripe ? SIMD3<Float>(235, 235, 240) : SIMD3<Float>(40, 90, 200)
        case .sleeve:
            return SIMD3<Float>(30, 70, 160)
        case .skin:
            return SIMD3<Float>(225, 175, 145)
        case .head:
            let hair = (y - shape.centreY) / shape.radiusY < -0.35
            return hair ? SIMD3<Float>(60, 40, 30) : SIMD3<Float>(225, 175, 145)
        case .jumper, .hair, .trousers, .shoe:
            // Not worn by this scene's person (GroupScene paints them).
            return SIMD3<Float>(128, 128, 128)
        }
    }

    /// Bricks 240 x 80 mm with mortar, each brick tinted by a hash of its position, and a poster.
    private static func wall(x: Float, y: Float) -> SIMD3<Float> {
        if x > -900 && x < -350 && y > -650 && y < 50 {
            let border = x < -880 || x > -370 || y < -630 || y > 30
            return border ? SIMD3<Float>(245, 245, 240) : SIMD3<Float>(40, 150, 120)
        }
        let course = floor(y / 80)
        let shift: Float = Int(course) & 1 == 0 ? 0 : 120
        let column = floor((x + shift) / 240)
        if modulo(y, 80) < 12 || modulo(x + shift, 240) < 12 { return SIMD3<Float>(170, 165, 155) }
        var hash = UInt32(bitPattern: Int32(truncatingIfNeeded: Int(course) &* 7919 &+ Int(column) &* 104_729))
        hash = (hash ^ (hash >> 15)) &* 0x2C1B_3C6D
        hash ^= hash >> 12
        let tint = Float(hash & 31) - 16
        return SIMD3<Float>(190 + tint, 110 + tint * 0.6, 85 + tint * 0.4)
    }

    private static func modulo(_ value: Float, _ period: Float) -> Float {
        value - floor(value / period) * period
    }

    /// Float's rounded(.down) calls libm, which the firmware does not link; scene values are
    /// small enough for an Int round trip.
    static func floor(_ value: Float) -> Float {
        let whole = Float(Int(value))
        return whole > value ? whole - 1 : whole
    }

    /// sin without libm (not reachable from Embedded Swift): range reduction and a 7th-order
    /// Taylor polynomial, accurate to 2e-4, plenty for a swaying person.
    static func sine(_ angle: Float) -> Float {
        let twoPi: Float = 6.2831853
        let halfPi: Float = 1.5707964
        var x = angle - floor(angle / twoPi + 0.5) * twoPi
        if x > halfPi { x = 2 * halfPi - x }
        if x < -halfPi { x = -2 * halfPi - x }
        let x2 = x * x
        return x * (1 - x2 / 6 * (1 - x2 / 20 * (1 - x2 / 42)))
    }

    @inline(never)
    private func pack(row y: Int, into color: ImageView) {
        let width = colourSize.width
        let out = color.row(y).assumingMemoryBound(to: UInt8.self)
        switch color.format {
        case .rgb24:
            out.copyElements(from: rgbRow, count: width * 3)
        case .yuyv:
            var x = 0
            while x + 1 < width {
                let (y0, u0, v0) = Self.yuv(rgbRow + 3 * x)
                let (y1, u1, v1) = Self.yuv(rgbRow + 3 * x + 3)
                out[2 * x] = y0
                out[2 * x + 1] = UInt8((Int(u0) + Int(u1) + 1) / 2)
                out[2 * x + 2] = y1
                out[2 * x + 3] = UInt8((Int(v0) + Int(v1) + 1) / 2)
                x += 2
            }
        case .nv12:
            for x in 0..<width { out[x] = Self.yuv(rgbRow + 3 * x).0 }
            if y & 1 == 0, let chroma = color.chromaPlane {
                let line = (chroma + (y / 2) * color.bytesPerRow).assumingMemoryBound(to: UInt8.self)
                var x = 0
                while x + 1 < width {
                    let (_, u0, v0) = Self.yuv(rgbRow + 3 * x)
                    let (_, u1, v1) = Self.yuv(rgbRow + 3 * x + 3)
                    line[x] = UInt8((Int(u0) + Int(u1) + 1) / 2)
                    line[x + 1] = UInt8((Int(v0) + Int(v1) + 1) / 2)
                    x += 2
                }
            }
        default:
            break
        }
    }

    /// BT.601 limited range, the integer form cameras and libyuv use.
    @inline(__always)
    private static func yuv(_ rgb: UnsafeMutablePointer<UInt8>) -> (UInt8, UInt8, UInt8) {
        let r = Int(rgb[0])
        let g = Int(rgb[1])
        let b = Int(rgb[2])
        let y = ((66 * r + 129 * g + 25 * b + 128) >> 8) + 16
        let u = ((-38 * r - 74 * g + 112 * b + 128) >> 8) + 128
        let v = ((112 * r - 94 * g - 18 * b + 128) >> 8) + 128
        return (UInt8(y), UInt8(u), UInt8(v))
    }
}
