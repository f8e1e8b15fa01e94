import Capture
import KernelIO
import Scanout

/// Offers the display the colour camera's own buffers for the camera view, so that view costs no
/// CPU per frame where the display can scan them out (zero-copy): at start-up and after every
/// reopen (a reopened camera has new buffers). Logs which path the camera view takes and why.
enum CameraViewPath {
    static func offer(source: borrowing V4L2Source, sink: KMSSink) {
        guard let camera = source.color else { return }
        if !camera.viewsDriverBuffers {
            sink.declineCamera("the camera's frames are decoded or converted first (\(camera.summary))")
        } else if !camera.granted.dmabufExported {
            sink.declineCamera("the camera's driver did not export its buffers as dmabufs (VIDIOC_EXPBUF refused)")
        } else {
            sink.adoptCamera(format: source.colorFormat, size: source.colorSize, bytesPerRow: camera.granted.bytesPerRow,
                             slotCount: camera.slotCount) { slot, use in _ = camera.withDMABuf(slot: slot, use) }
        }
        Log.info(sink.cameraReason)
    }
}
