import CDRM
import CGBM
import Frames
import KernelIO

/// A scanout buffer from libgbm: linear (so the CPU's rows are the display's rows), for scanout,
/// mapped once for the CPU to write for the buffer's whole life, with its framebuffer ID. The
/// same contract as `DumbBuffer`: allocated once at start-up; `deinit` unmaps, removes the
/// framebuffer and destroys the buffer object, in that order. Holds its device, which must
/// outlive the buffer object.
final class GBMBuffer {
    let framebufferID: UInt32
    let view: ImageView
    private let device: GBMDevice
    private let bo: OpaquePointer
    /// gbm_bo_map's token for gbm_bo_unmap.
    private let mapToken: UnsafeMutableRawPointer

    init(device: GBMDevice, format: PixelFormat, size: FrameSize) throws(GBMRefusal) {
        let fourCC = format.drmFourCC!
        let width = UInt32(size.width), height = UInt32(size.height)
        // GBM's format codes are DRM's fourccs.
        guard let bo = gbm_bo_create(device.raw, width, height, fourCC,
                                     GBM_BO_USE_SCANOUT.rawValue | GBM_BO_USE_LINEAR.rawValue) else {
            throw .create(format: format.name, size: size, .current)
        }
        var stride: UInt32 = 0
        var token: UnsafeMutableRawPointer? = nil
        guard let base = gbm_bo_map(bo, 0, 0, width, height, GBM_BO_TRANSFER_READ_WRITE.rawValue, &stride, &token),
              let token else {
            let errno = Errno.current
            gbm_bo_destroy(bo)
            throw .map(errno)
        }
        let fd = device.card.fd
        var planes = FramebufferPlanes(handle: gbm_bo_get_handle(bo).u32, pitch: gbm_bo_get_stride(bo),
                                       offset: gbm_bo_get_offset(bo, 0), format: format, height: size.height)
        guard let framebuffer = planes.add(fd: fd, size: size, fourCC: fourCC) else {
            let errno = Errno.current
            gbm_bo_unmap(bo, token)
            gbm_bo_destroy(bo)
            throw .addFramebuffer(format: format.name, errno)
        }
        // The mapping's stride, not the buffer's: the CPU writes through the mapping.
        let view = ImageView(format: format, size: size, bytesPerRow: Int(stride), base: base)
        for y in 0..<size.height { view.row(y).initializeMemory(as: UInt8.self, repeating: 0, count: size.width * format.bytesPerPixel) }
        self.device = device
        self.bo = bo
        self.mapToken = token
        self.framebufferID = framebuffer
        self.view = view
    }

    deinit {
        gbm_bo_unmap(bo, mapToken)
        _ = drmModeRmFB(device.card.fd, framebufferID)
        gbm_bo_destroy(bo)
    }
}
