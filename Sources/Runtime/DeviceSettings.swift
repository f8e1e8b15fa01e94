import Capture
import Scanout
import Settings

/// `[output]` and `[camera]` as the device adapters' options.
public enum DeviceSettings {
    public static func sinkOptions(_ output: OutputSettings) -> KMSSinkOptions {
        var options = KMSSinkOptions()
        if case .named(let path) = output.card { options.card = path }
        options.mode = output.mode
        switch output.blend {
        case .auto: options.blend = .auto
        case .cpu: options.blend = .cpu
        case .plane: options.blend = .plane
        }
        options.writeback = output.writeback
        return options
    }

    public static func sourceConfiguration(_ camera: CameraSettings) -> V4L2SourceConfiguration {
        func choice(_ device: DeviceChoice) -> NodeChoice {
            if case .named(let path) = device { return .path(path) }
            return .auto
        }
        var configuration = V4L2SourceConfiguration(color: choice(camera.colorDevice), depth: choice(camera.depthDevice),
                                                    size: camera.size, colorFormat: CaptureFormat.parse(camera.colorFormat.name),
                                                    framesPerSecond: camera.fps, depthUnitMM: Float(camera.depthUnitMM))
        // Each stream its own size where given; auto leaves a RealSense's own (V4L2Source).
        if let size = camera.depthSize { configuration.depthRequest.size = size }
        if let size = camera.colorSize { configuration.colorRequest.size = size }
        configuration.depthSizeGiven = camera.depthSize != nil
        configuration.colorSizeGiven = camera.colorSize != nil
        configuration.depthUnitGiven = camera.depthUnitTyped
        return configuration
    }
}
