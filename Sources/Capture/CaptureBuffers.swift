import CKernel
import KernelIO

/// The driver's mmap buffers of one node, requested, mapped and (where the driver allows)
/// exported as dmabuf fds once, at open. Owns the mappings and the exported fds: unmapped and
/// closed in `deinit`, which must run before the node's fd is closed.
final class CaptureBuffers {
    let count: Int
    private(set) var bases: [UnsafeMutableRawPointer] = []
    private(set) var lengths: [Int] = []
    /// -1 where the driver refused VIDIOC_EXPBUF.
    private(set) var dmabufs: [Int32] = []

    init(fd: Int32, path: String, requested: Int) throws(CaptureError) {
        var request = v4l2_requestbuffers()
        request.count = UInt32(requested)
        request.type = UInt32(BK_V4L2_BUF_TYPE_VIDEO_CAPTURE)
        request.memory = UInt32(BK_V4L2_MEMORY_MMAP)
        if let error = V4L2Funnel.control(fd, BK_VIDIOC_REQBUFS, &request) {
            count = 0
            throw CaptureBuffers.failure("VIDIOC_REQBUFS", path, error)
        }
        count = Int(request.count)
        // Fewer than two buffers cannot stream: the driver would have nothing to fill while
        // the pipeline holds the only one.
        guard count >= 2 else {
            throw .unsupported(path: path, reason: "driver granted \(count) capture buffers, need at least 2")
        }
        bases.reserveCapacity(count)
        lengths.reserveCapacity(count)
        dmabufs.reserveCapacity(count)
        for index in 0..<count {
            var buffer = v4l2_buffer()
            buffer.index = UInt32(index)
            buffer.type = UInt32(BK_V4L2_BUF_TYPE_VIDEO_CAPTURE)
            buffer.memory = UInt32(BK_V4L2_MEMORY_MMAP)
            if let error = V4L2Funnel.control(fd, BK_VIDIOC_QUERYBUF, &buffer) {
                throw CaptureBuffers.failure("VIDIOC_QUERYBUF", path, error)
            }
            let length = Int(buffer.length)
            // Writable so views can be ImageViews like any other frame; nobody writes to them.
            guard let base = bk_mmap_shared(fd, length, off_t(buffer.m.offset), 1) else {
                throw CaptureBuffers.failure("mmap", path, .current)
            }
            bases.append(base)
            lengths.append(length)

            var export = v4l2_exportbuffer()
            export.type = UInt32(BK_V4L2_BUF_TYPE_VIDEO_CAPTURE)
            export.index = UInt32(index)
            export.flags = UInt32(bk_v4l2_export_flags())
            dmabufs.append(V4L2Funnel.control(fd, BK_VIDIOC_EXPBUF, &export) == nil ? export.fd : -1)
        }
    }

    var allExported: Bool { !dmabufs.isEmpty && !dmabufs.contains(-1) }

    private static func failure(_ operation: String, _ path: String, _ error: Errno) -> CaptureError {
        error == .noDevice ? .disconnected(path: path) : .system(SystemError("\(operation) \(path)", error))
    }

    deinit {
        for index in 0..<bases.count { _ = bk_munmap(bases[index], lengths[index]) }
        for fd in dmabufs where fd >= 0 { _ = bk_close(fd) }
    }
}
