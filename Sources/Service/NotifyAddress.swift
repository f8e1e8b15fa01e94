import CKernel

/// Where the service manager listens for notifications, decoded from `NOTIFY_SOCKET` as systemd
/// documents it (sd_notify(3)): an absolute path names a socket in the file system, a leading `@`
/// an abstract socket whose name is the rest (sent with a leading NUL byte instead of the `@`).
public struct NotifyAddress: Equatable, Sendable {
    /// The bytes of `sun_path` as the kernel takes them (no terminating NUL).
    public let bytes: [UInt8]

    public init(parsing value: String) throws(NotifyAddressError) {
        var bytes = Array(value.utf8)
        guard let first = bytes.first else { throw NotifyAddressError(value: value, reason: "it is empty") }
        switch first {
        case UInt8(ascii: "/"):
            guard bytes.count < Int(BK_UNIX_ADDRESS_MAX) else {
                throw NotifyAddressError(value: value, reason: "a socket path is at most \(Int(BK_UNIX_ADDRESS_MAX) - 1) bytes")
            }
        case UInt8(ascii: "@"):
            guard bytes.count > 1 else { throw NotifyAddressError(value: value, reason: "an abstract name follows the @") }
            guard bytes.count <= Int(BK_UNIX_ADDRESS_MAX) else {
                throw NotifyAddressError(value: value, reason: "an abstract name is at most \(Int(BK_UNIX_ADDRESS_MAX) - 1) bytes")
            }
            bytes[0] = 0
        default:
            // systemd 254 added vsock: addresses for virtual machines; the box's systemd never sends one.
            throw NotifyAddressError(value: value, reason: "only an absolute path or an @abstract name is supported")
        }
        guard !bytes.dropFirst().contains(0) else { throw NotifyAddressError(value: value, reason: "it contains a NUL byte") }
        self.bytes = bytes
    }

    public var isAbstract: Bool { bytes.first == 0 }
}

/// NOTIFY_SOCKET was set to something this notifier cannot send to.
public struct NotifyAddressError: Error, Equatable {
    public let value: String
    public let reason: String

    public var message: String { "NOTIFY_SOCKET=\(value) is not usable: \(reason)" }
}
