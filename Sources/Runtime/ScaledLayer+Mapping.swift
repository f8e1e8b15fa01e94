import Compose
import Frames
import Scanout

extension ScaledLayer {
    /// The overlay rectangles that make a scaling display draw the camera where `mapping` draws it
    /// (fill: a cropped source over the whole output; fit: the whole camera over the inset
    /// rectangle), for a camera-sized layer.
    public init(camera: FrameSize, mapping: CameraMapping) {
        self.init(size: camera,
                  source: PlaneRect(x: mapping.sourceColumns.lowerBound, y: mapping.sourceRows.lowerBound,
                                    width: mapping.sourceColumns.count, height: mapping.sourceRows.count),
                  target: PlaneRect(x: mapping.activeColumns.lowerBound, y: mapping.activeRows.lowerBound,
                                    width: mapping.activeColumns.count, height: mapping.activeRows.count))
    }
}
