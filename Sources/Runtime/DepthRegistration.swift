import Capture
import Frames
import KernelIO
import Matte
import Settings

/// Whether depth needs reprojecting onto colour, decided once at start-up from `[camera]` (for
/// a recording, RunCommand and RenderCommand put the recording's own facts there first). Every
/// path that builds a matte (render, run on a recording, run on the cameras) asks here, so
/// unregistered depth lines up with the person the same way everywhere.
public enum DepthRegistration {
    /// nil when depth is already registered (or cannot be reprojected: said as a warning).
    /// `depthSize` and `colorSize` are what the source delivers; the config's intrinsics are in
    /// pixels at `[camera] size` and are scaled when the granted size differs.
    ///
    /// `registered = auto` (the default) asks the camera: `fromCamera` is a RealSense D4xx's own
    /// calibration at these sizes (V4L2Source reads it), `cameraNote` why there is none. Typed
    /// intrinsics overrule the camera's. One line says where the calibration came from.
    public static func projection(camera: CameraSettings, depthSize: FrameSize, colorSize: FrameSize,
                           fromCamera: CameraCalibration? = nil, cameraNote: String? = nil) -> DepthProjection? {
        if camera.registration == .registered {
            Log.info("depth: registered to colour by the camera; used pixel for pixel")
            return nil
        }
        if camera.depthIntrinsics == nil || camera.colorIntrinsics == nil {
            guard let calibration = fromCamera, calibration.depthSize == depthSize, calibration.colorSize == colorSize else {
                if camera.registration == .unregistered { return configured(camera, depthSize: depthSize, colorSize: colorSize) }
                Log.warning("depth: calibration: none (\(cameraNote ?? "the camera says nothing about it")); depth used as "
                            + "if registered to colour. If the matte lands beside people, set [camera] registered = false "
                            + "with depth_fx/fy/cx/cy, color_fx/fy/cx/cy and tx/ty/tz_mm (backdrop cameras shows what the camera says)")
                return nil
            }
            let projection = DepthProjection(depth: calibration.depth, colour: calibration.color,
                                             rotation: calibration.rotation, translationMM: calibration.translationMM)
            Log.info("depth: calibration from the camera: \(calibration.source); depth \(depthSize.description) fx "
                     + "\(Int(projection.depth.fx)), colour \(colorSize.description) fx \(Int(projection.colour.fx)), "
                     + "colour camera at \(CalibrationText.vector(calibration.translationMM, places: 1)) mm")
            return projection
        }
        return configured(camera, depthSize: depthSize, colorSize: colorSize)
    }

    /// From the config's intrinsics and offset (registered = false, or auto with them typed).
    private static func configured(_ camera: CameraSettings, depthSize: FrameSize, colorSize: FrameSize) -> DepthProjection? {
        guard let depth = camera.depthIntrinsics, let colour = camera.colorIntrinsics else {
            // Name only what is missing: a recording's own [intrinsics] give the depth camera.
            let missing = (camera.depthIntrinsics == nil ? ["[camera] depth_fx/fy/cx/cy (or a recording's [intrinsics])"] : [])
                + (camera.colorIntrinsics == nil ? ["[camera] color_fx/fy/cx/cy"] : [])
            Log.warning("depth: not registered to colour, but " + missing.joined(separator: " and ")
                        + " not set; using depth as if registered, so the matte will not line up")
            return nil
        }
        let nominal = camera.size
        let projection = DepthProjection(
            depth: depth.scaled(x: Float(depthSize.width) / Float(nominal.width),
                                y: Float(depthSize.height) / Float(nominal.height)),
            colour: colour.scaled(x: Float(colorSize.width) / Float(nominal.width),
                                  y: Float(colorSize.height) / Float(nominal.height)),
            translationMM: SIMD3<Float>(Float(camera.depthToColor.xMM), Float(camera.depthToColor.yMM),
                                        Float(camera.depthToColor.zMM)))
        Log.info("depth: not registered; reprojected onto colour with the config's calibration (depth fx \(Int(projection.depth.fx)), "
                 + "colour fx \(Int(projection.colour.fx)), offset \(camera.depthToColor.xMM),"
                 + "\(camera.depthToColor.yMM),\(camera.depthToColor.zMM) mm)")
        return projection
    }

    /// `[camera]` as it applies to a recording: the recording says whether its depth is
    /// registered and may carry the depth intrinsics (at its depth size); colour intrinsics and
    /// the offset still come from the config.
    public static func camera(_ camera: CameraSettings, recordingRegistered: Bool, recordingIntrinsics: PinholeIntrinsics?,
                       depthSize: FrameSize) -> CameraSettings {
        var adjusted = camera
        adjusted.registered = recordingRegistered
        if adjusted.depthIntrinsics == nil, let intrinsics = recordingIntrinsics {
            // Stored at the depth size; projection(...) scales from [camera] size.
            adjusted.depthIntrinsics = intrinsics.scaled(x: Float(camera.size.width) / Float(depthSize.width),
                                                         y: Float(camera.size.height) / Float(depthSize.height))
        }
        return adjusted
    }
}
