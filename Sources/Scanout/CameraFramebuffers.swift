import CDRM
import Frames
import KernelIO

/// The camera's own V4L2 buffers as framebuffers, one per camera slot, so the display can scan a
/// captured frame out as it is (zero-copy). Made once per opened camera, off the frame path.
///
/// Ownership: the dmabuf fds stay the camera's (Capture's CaptureBuffers exported them at open and
/// closes them); each is only lent to `init` for the import. The import gives this object a GEM
/// handle on the card, which holds the buffer itself, so the framebuffers stay valid after the
/// camera closes its fds or is closed. `deinit` removes each framebuffer (drmModeRmFB) and closes
/// each handle (DRM_IOCTL_GEM_CLOSE). Removing a framebuffer a plane still shows makes the kernel
/// take the plane off, so the owner (KMSSink) keeps this object while any of its framebuffers is
/// on screen or queued.
final class CameraFramebuffers {
    let format: PixelFormat
    let size: FrameSize
    /// Held so the card's fd outlives every framebuffer made on it.
    private let card: KMSCard
    private var handles: [UInt32] = []
    private var framebuffers: [UInt32] = []

    /// Why an import could not be made, in words for the start-up line.
    enum Refusal: Error, Equatable {
        /// Camera slot `slot` lent no dmabuf (the driver refused VIDIOC_EXPBUF).
        case notExported(slot: Int)
        /// The display has no fourcc for the format.
        case noDisplayFormat(PixelFormat)
        case system(SystemError)

        var message: String {
            switch self {
            case .notExported(let slot): return "the camera's buffers were not exported (no dmabuf for slot \(slot))"
            case .noDisplayFormat(let format): return "the display has no \(format.name) format"
            case .system(let error): return error.message
            }
        }
    }

    /// Imports `count` camera buffers of `format` at `size`, `bytesPerRow` apart row to row.
    /// `dmabuf(slot, use)` must call `use` with slot `slot`'s dmabuf fd while it is valid (the fd
    /// is not kept), or not at all when the slot has none: `{ slot, use in camera.withDMABuf(slot: slot, use) }`.
    /// Throws on the first slot that cannot be imported; what was imported before is released.
    init(card: KMSCard, format: PixelFormat, size: FrameSize, bytesPerRow: Int, count: Int,
         dmabuf: (_ slot: Int, _ use: (Int32) -> Void) -> Void) throws(Refusal) {
        self.card = card
        self.format = format
        self.size = size
        guard let fourCC = format.drmFourCC else { throw .noDisplayFormat(format) }
        handles.reserveCapacity(count)
        framebuffers.reserveCapacity(count)
        for slot in 0..<count {
            var lent = false
            var imported: UInt32 = 0
            var failure: SystemError? = nil
            dmabuf(slot) { fd in
                lent = true
                if drmPrimeFDToHandle(card.fd, fd, &imported) != 0 { failure = SystemError("import camera buffer \(slot) (dmabuf)") }
            }
            guard lent else { throw .notExported(slot: slot) }
            if let failure { throw .system(failure) }
            // Two slots never share a buffer, but the kernel would hand out the same handle twice:
            // closing it once per slot would then close it early.
            guard !handles.contains(imported) else {
                throw .system(SystemError("import camera buffer \(slot): the same buffer as another slot", .invalidArgument))
            }
            handles.append(imported)
            framebuffers.append(try Self.addFramebuffer(card: card, handle: imported, fourCC: fourCC, format: format,
                                                        size: size, bytesPerRow: bytesPerRow))
        }
    }

    deinit {
        for framebuffer in framebuffers { _ = drmModeRmFB(card.fd, framebuffer) }
        for handle in handles { _ = drmCloseBufferHandle(card.fd, handle) }
    }

    var count: Int { framebuffers.count }

    /// Camera slot `slot`'s framebuffer ID.
    func framebufferID(_ slot: Int) -> UInt32 { framebuffers[slot] }

    private static func addFramebuffer(card: KMSCard, handle: UInt32, fourCC: UInt32, format: PixelFormat, size: FrameSize,
                                       bytesPerRow: Int) throws(Refusal) -> UInt32 {
        var planes = FramebufferPlanes(handle: handle, pitch: UInt32(bytesPerRow), format: format, height: size.height)
        guard let framebuffer = planes.add(fd: card.fd, size: size, fourCC: fourCC) else { throw .system(SystemError("add \(format.name) \(size.description) framebuffer for a camera buffer")) }
        return framebuffer
    }

    /// Whether plane `planeID` lists `format` (setup only: asks the kernel).
    static func plane(_ planeID: UInt32, on card: KMSCard, takes format: PixelFormat) -> Bool {
        guard let fourCC = format.drmFourCC, let plane = drmModeGetPlane(card.fd, planeID) else { return false }
        defer { drmModeFreePlane(plane) }
        for index in 0..<Int(plane.pointee.count_formats) where plane.pointee.formats[index] == fourCC { return true }
        return false
    }
}
