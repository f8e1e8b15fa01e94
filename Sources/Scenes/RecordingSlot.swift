import Frames

/// One slot's frame memory for `RecordingSource`: a PixelBuffer in a class so slots can sit in an
/// array (PixelBuffer is move-only).
final class RecordingSlot {
    let buffer: PixelBuffer

    init(_ buffer: consuming PixelBuffer) { self.buffer = buffer }
}
