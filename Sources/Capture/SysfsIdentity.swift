import CKernel
import KernelIO

/// What sysfs says about a video node beyond V4L2: its USB streaming interface's name and the USB
/// device's vendor and product ids. Found by device number (/sys/dev/char/MAJOR:MINOR), so a
/// /dev/v4l/by-id link works like the node it points at. Non-USB nodes (vivid, v4l2loopback) have
/// none of these: empty and zero.
public struct SysfsIdentity: Equatable, Sendable {
    public var interfaceName: String
    public var vendorID: UInt16
    public var productID: UInt16

    public init(interfaceName: String = "", vendorID: UInt16 = 0, productID: UInt16 = 0) {
        self.interfaceName = interfaceName
        self.vendorID = vendorID
        self.productID = productID
    }

    /// `root` is /sys; tests point it at a folder laid out the same way.
    public static func read(deviceNumber: UInt64, root: String = "/sys") -> SysfsIdentity {
        guard deviceNumber != 0 else { return SysfsIdentity() }
        // glibc's dev_t split (major 12 bits low + high, minor 8 + 12).
        let major = ((deviceNumber >> 8) & 0xFFF) | ((deviceNumber >> 32) & ~UInt64(0xFFF))
        let minor = (deviceNumber & 0xFF) | ((deviceNumber >> 12) & ~UInt64(0xFF))
        let device = "\(root)/dev/char/\(major):\(minor)/device"
        // The node's `device` is the USB interface; its parent is the USB device with the ids.
        return SysfsIdentity(interfaceName: line(device + "/interface"),
                             vendorID: hex(line(device + "/../idVendor")),
                             productID: hex(line(device + "/../idProduct")))
    }

    static func line(_ path: String) -> String {
        guard let bytes = try? WholeFile.bytes(path, limit: 4096) else { return "" }
        var text = String(decoding: bytes, as: UTF8.self)
        while let last = text.last, last == "\n" || last == " " { text.removeLast() }
        return text
    }

    static func hex(_ text: String) -> UInt16 { UInt16(text, radix: 16) ?? 0 }
}
