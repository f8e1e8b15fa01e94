import Frames

/// Where a display that scales the camera layer shows it: a camera-sized layer drawn onto the
/// output by `mapping` (the compositor's own, from which the overlay plane's source and target
/// rectangles are derived), nearest sample by pixel centre as the scaling plane does
/// (vboard/patches/0005 samples the same way). What a photo without writeback and the message
/// layer need to draw what the display will show.
public struct LayerPlacement: Equatable, Sendable {
    public let layerSize: FrameSize
    public let outputSize: FrameSize
    public let mapping: CameraMapping

    public init(layer: FrameSize, output: FrameSize, fit: FitMode) {
        layerSize = layer
        outputSize = output
        mapping = CameraMapping(camera: layer, output: output, fit: fit)
    }
}
