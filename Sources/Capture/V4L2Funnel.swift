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
            let status = withUnsafeMutablePointer(to: &argument) { bk_ioctl(fd, request, $0) }
            if status >= 0 { return nil }
            let error = Errno.current
            if error != .interrupted { return error }
        }
    }
}
