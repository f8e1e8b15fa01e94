import CKernel
import KernelIO

/// The one path from Capture to the kernel's V4L2 ioctls: every request goes through `control`,
/// which retries EINTR (a signal landing mid-ioctl is not a failure) and returns the errno
/// otherwise. Never logs; callers add what they were doing.
enum V4L2Funnel {
    /// nil on success, else the errno of the failed request.
    @inline(__always)
    static func control<Argument>(_ fd: Int32, _ request: UInt, _ argument: inout Argument) -> Errno? {
        while true {
            #if DEBUG
            if let fault = takeFault(request) {
                if fault == .interrupted { continue }
                return fault
            }
            #endif
            let status = withUnsafeMutablePointer(to: &argument) { bk_ioctl(fd, request, $0) }
            if status >= 0 { return nil }
            let error = Errno.current
            if error != .interrupted { return error }
        }
    }

    #if DEBUG
    /// Fault injection for tests (debug builds only): each entry makes the next call of its
    /// request fail with its errno instead of reaching the kernel. EINTR entries exercise the
    /// retry. Touched only from the thread that drives the camera.
    nonisolated(unsafe) static var faults: [(request: UInt, errno: Errno)] = []

    private static func takeFault(_ request: UInt) -> Errno? {
        guard !faults.isEmpty, let index = faults.firstIndex(where: { $0.request == request }) else { return nil }
        return faults.remove(at: index).errno
    }
    #endif
}
