import CKernel
import KernelIO

/// Asks the kernel what V4L2 nodes exist and what each offers (VIDIOC_QUERYCAP, VIDIOC_ENUM_FMT).
/// Opening a node to ask is harmless: V4L2 allows several opens, and nothing is configured.
public enum DeviceProbe {
    /// Every /dev/video* node that answers QUERYCAP, in node-number order. Nodes that cannot be
    /// opened or queried (being removed, permission) are left out rather than failing the scan.
    public static func scan(directory: String = "/dev") -> [DeviceDescription] {
        var found: [DeviceDescription] = []
        for name in videoNodeNames(in: directory) {
            if let node = try? describe(path: directory + "/" + name) { found.append(node) }
        }
        return found.sorted { CameraSelector.pathPrecedes($0.path, $1.path) }
    }

    /// Scans /dev and adds the nodes the choices name (they may be /dev/v4l/by-id links, which
    /// the scan does not see), then lets `CameraSelector` decide.
    public static func select(color: NodeChoice, depth: NodeChoice, directory: String = "/dev") throws(CaptureError) -> CameraSelection {
        var devices = scan(directory: directory)
        for choice in [color, depth] {
            guard case .path(let path) = choice, !devices.contains(where: { $0.path == path }) else { continue }
            devices.append(try describe(path: path))
        }
        return try CameraSelector.select(color: color, depth: depth, devices: devices)
    }

    public static func describe(path: String) throws(CaptureError) -> DeviceDescription {
        let raw = bk_v4l2_open(path)
        guard raw >= 0 else { throw openError(path) }
        let owner = FileDescriptor(adopting: raw)
        return try owner.withRawValue { fd throws(CaptureError) in try describe(fd: fd, path: path) }
    }

    static func describe(fd: Int32, path: String) throws(CaptureError) -> DeviceDescription {
        var capability = v4l2_capability()
        if let error = V4L2Funnel.control(fd, BK_VIDIOC_QUERYCAP, &capability) {
            if error == .noDevice { throw .disconnected(path: path) }
            throw .system(SystemError("VIDIOC_QUERYCAP \(path)", error))
        }
        // device_caps describes this node; capabilities covers every node of the device.
        let caps = capability.capabilities & BK_V4L2_CAP_DEVICE_CAPS != 0 ? capability.device_caps : capability.capabilities
        let canStream = caps & BK_V4L2_CAP_VIDEO_CAPTURE != 0 && caps & BK_V4L2_CAP_STREAMING != 0
        var formats: [UInt32] = []
        if canStream {
            var index: UInt32 = 0
            while index < 64 {
                var description = v4l2_fmtdesc()
                description.index = index
                description.type = UInt32(BK_V4L2_BUF_TYPE_VIDEO_CAPTURE)
                guard V4L2Funnel.control(fd, BK_VIDIOC_ENUM_FMT, &description) == nil else { break }
                formats.append(description.pixelformat)
                index += 1
            }
        }
        let deviceNumber = bk_v4l2_device_number(path)
        return DeviceDescription(path: path, driver: text(capability.driver), card: text(capability.card),
                                 busInfo: text(capability.bus_info), deviceNumber: deviceNumber,
                                 canStream: canStream, formats: formats,
                                 identity: SysfsIdentity.read(deviceNumber: deviceNumber))
    }

    static func openError(_ path: String) -> CaptureError {
        let error = Errno.current
        if error == .noSuchFile { return .notFound("\(path): no such device node") }
        if error == .noDevice { return .disconnected(path: path) }
        return .system(SystemError("open \(path)", error))
    }

    private static func videoNodeNames(in directory: String) -> [String] {
        let names = (try? DirectoryListing.names(in: directory, capacityBytes: 65536)) ?? []
        return names.filter { $0.hasPrefix("video") }
    }

    /// A fixed-size, NUL-padded char array from a kernel struct as a String.
    static func text<Tuple>(_ field: Tuple) -> String {
        withUnsafeBytes(of: field) { bytes in
            let length = bytes.firstIndex(of: 0) ?? bytes.count
            return String(decoding: bytes.prefix(length), as: UTF8.self)
        }
    }
}
