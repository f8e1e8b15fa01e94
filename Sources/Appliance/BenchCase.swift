import Runtime
import Frames
import Matte

/// One configuration `backdrop bench` times: a camera size, a depth size, an output size and what
/// compose writes. Also the traffic model its floor is measured against.
///
/// The floor is what the case must move however it is written: per frame it reads the camera's
/// colour (YUYV, 2 B/px at camera size) and depth (Z16, 2 B/px at depth size), the backdrop
/// (XRGB8888, 4 B/px at output size; the CPU-blend path only) and writes the output (4 B/px at
/// output size). memcpy reads and writes the bytes it copies, so the floor copies half the case's
/// traffic: the same bytes moved, not twice them. The alpha plane between matte and compose is
/// not in the floor: a one-pass design need not store it.
struct BenchCase {
    enum Mode: Equatable {
        /// The CPU blends the camera over the backdrop into a finished XRGB8888 frame.
        case frame
        /// The camera layer only (premultiplied ARGB8888) for a display plane over the backdrop
        /// plane; the display does the blend, so the backdrop is not read.
        case layer
        /// The camera layer at the camera's size for a display plane that scales it too: compose
        /// follows the camera's pixels, not the TV's.
        case scaledLayer

        var name: String {
            switch self {
            case .frame: return "frame"
            case .layer: return "layer"
            case .scaledLayer: return "scaled-layer"
            }
        }

        var label: String {
            switch self {
            case .frame: return "CPU blend"
            case .layer: return "overlay layer"
            case .scaledLayer: return "display-scaled layer"
            }
        }
    }

    let camera: FrameSize
    let depth: FrameSize
    let output: FrameSize
    let mode: Mode
    /// How the camera is fitted to the output. A letterboxed fit still writes the whole output
    /// over the whole backdrop, so the floor is the same.
    var fit: FitMode = .fill
    /// Depth from a camera beside the colour one, reprojected every frame (a RealSense D4xx):
    /// `--registered` times the registration a RealSense box pays.
    var registered = false

    /// A D435's factory calibration (depth 848x480, colour 1280x720, colour 14.9 mm aside, a
    /// few milliradians of rotation), scaled to the case's sizes. The scene's depth is drawn
    /// registered, so the matte lands a little beside the person: the cost is what is measured.
    var projection: DepthProjection? {
        guard registered else { return nil }
        let depthCamera = PinholeIntrinsics(fx: 421.5, fy: 421.5, cx: 424.2, cy: 238.9)
            .scaled(x: Float(depth.width) / 848, y: Float(depth.height) / 480)
        let colourCamera = PinholeIntrinsics(fx: 613.4, fy: 613.4, cx: 646.5, cy: 357.9)
            .scaled(x: Float(camera.width) / 1280, y: Float(camera.height) / 720)
        let rotation = CameraRotation(row0: SIMD3(1, -0.0021, 0.0043), row1: SIMD3(0.0021, 1, 0.0012),
                                      row2: SIMD3(-0.0043, -0.0012, 1))
        return DepthProjection(depth: depthCamera, colour: colourCamera, rotation: rotation,
                               translationMM: SIMD3(-14.9, -0.1, -0.3))
    }

    static let colourBytesPerPixel = 2  // YUYV
    static let depthBytesPerPixel = 2  // Z16
    static let outputBytesPerPixel = 4  // XRGB8888 / ARGB8888

    /// The cameras a box really has; under a larger output they are upscaled by compose.
    static let boxCameras = [FrameSize(width: 640, height: 480), FrameSize(width: 848, height: 480),
                             FrameSize(width: 1280, height: 720)]

    /// The cases for `output`: every box camera smaller than it, then the camera at its size.
    static func cameras(under output: FrameSize) -> [FrameSize] {
        boxCameras.filter { $0.width <= output.width && $0.height <= output.height && $0 != output } + [output]
    }

    var colourBytes: Int { camera.pixelCount * Self.colourBytesPerPixel }
    var depthBytes: Int { depth.pixelCount * Self.depthBytesPerPixel }
    var backdropBytes: Int { mode == .frame ? output.pixelCount * Self.outputBytesPerPixel : 0 }
    /// The composed buffer: the camera's size when the display scales it.
    var outputBytes: Int { (mode == .scaledLayer ? camera : output).pixelCount * Self.outputBytesPerPixel }
    var alphaBytes: Int { camera.pixelCount }

    /// Bytes the case must move per frame (read plus written).
    var trafficBytes: Int { colourBytes + depthBytes + backdropBytes + outputBytes }
    /// What memcpy copies to move `trafficBytes` (it reads and writes each byte).
    var floorCopyBytes: Int { (trafficBytes + 1) / 2 }

    /// The matte stage's own input and output: depth read, alpha written.
    var matteBytes: Int { depthBytes + alphaBytes }
    /// The compose stage's own input and output: colour and alpha read, backdrop read (frame
    /// mode), output written.
    var composeBytes: Int { colourBytes + alphaBytes + backdropBytes + outputBytes }

    var title: String {
        "camera \(camera.description)" + (depth == camera ? "" : " (depth \(depth.description))")
            + " -> \(output.description)" + (fit == .fill ? "" : " (\(fit.name))") + ", \(mode.label)"
            + (registered ? ", registered (D435 calibration)" : "")
    }
}
