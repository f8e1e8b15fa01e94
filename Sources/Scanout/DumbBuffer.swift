import CDRM
import CKernel
import Frames
import KernelIO

/// A CPU-mapped scanout buffer with its framebuffer ID. Allocated once at start-up; the mapping,
/// the framebuffer and the buffer object are released in `deinit`, in that order.
final class DumbBuffer {
    let framebufferID: UInt32
    let view: ImageView
    /// Held so the card's fd outlives every buffer made on it.
    private let card: KMSCard
    private let handle: UInt32
    private let byteCount: Int

    init(card: KMSCard, format: PixelFormat, size: FrameSize) throws(ScanoutError) {
        let fd = card.fd
        var handle: UInt32 = 0
        var pitch: UInt32 = 0
        var bytes: UInt64 = 0
        guard drmModeCreateDumbBuffer(fd, UInt32(size.width), UInt32(size.height), UInt32(format.bytesPerPixel * 8), 0,
                                      &handle, &pitch, &bytes) == 0 else {
            throw .system(SystemError("create \(size.description) dumb buffer"))
        }
        var offset: UInt64 = 0
        guard drmModeMapDumbBuffer(fd, handle, &offset) == 0,
              let base = bk_mmap_shared(fd, Int(bytes), off_t(offset), 1) else {
            let error = SystemError("map dumb buffer")
            _ = drmModeDestroyDumbBuffer(fd, handle)
            throw .system(error)
        }
        var planes = FramebufferPlanes(handle: handle, pitch: pitch, format: format, height: size.height)
        guard let framebuffer = planes.add(fd: fd, size: size, fourCC: format.drmFourCC!) else {
            let error = SystemError("add \(format.name) framebuffer")
            _ = bk_munmap(base, Int(bytes))
            _ = drmModeDestroyDumbBuffer(fd, handle)
            throw .system(error)
        }
        base.initializeMemory(as: UInt8.self, repeating: 0, count: Int(bytes))
        self.card = card
        self.handle = handle
        self.byteCount = Int(bytes)
        self.framebufferID = framebuffer
        self.view = ImageView(format: format, size: size, bytesPerRow: Int(pitch), base: base)
    }

    deinit {
        _ = bk_munmap(view.base, byteCount)
        _ = drmModeRmFB(card.fd, framebufferID)
        _ = drmModeDestroyDumbBuffer(card.fd, handle)
    }
}
