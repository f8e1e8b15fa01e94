import Compose
import Frames

/// A full-screen message ("NO CAMERA", "CAMERA DISCONNECTED") for when there is no camera frame
/// to show: over the backdrop (CPU blend) or on a transparent camera layer (display blend).
enum NoticeScreen {
    static func draw(_ message: String, into view: ImageView, backdrop: ImageView, layer: Bool) {
        if layer {
            for row in 0..<view.size.height { view.row(row).initializeMemory(as: UInt8.self, repeating: 0, count: view.size.width * 4) }
        } else {
            copy(backdrop, into: view)
        }
        _ = TextOverlay().draw(message, into: view)
    }

    static func copy(_ image: ImageView, into target: ImageView?) {
        guard let target, target.size == image.size else { return }
        for row in 0..<target.size.height {
            target.row(row).copyMemory(from: image.row(row), byteCount: min(target.bytesPerRow, image.bytesPerRow, target.size.width * 4))
        }
    }
}
