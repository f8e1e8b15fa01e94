import CKernel
import Foundation

/// Stands in for the service manager (ServiceTests, RuntimeTests): a bound AF_UNIX datagram socket that collects what was sent.
/// Sends to a local datagram socket are queued before sendto() returns, so a receive right after a
/// send that succeeded finds the datagram without waiting.
public struct NotifyListener: ~Copyable {
    private let fd: Int32
    /// NOTIFY_SOCKET as systemd would spell it for this socket.
    public let spelling: String
    private let path: String?

    /// An abstract socket with a name unique to this process and call.
    public static func abstract() -> NotifyListener {
        let name = "backdrop-test-\(UUID().uuidString)"
        return NotifyListener(kernelAddress: [0] + Array(name.utf8), spelling: "@" + name, path: nil)
    }

    /// A socket in the file system, as systemd 252 uses (/run/systemd/notify).
    public static func path() -> NotifyListener {
        let path = "/tmp/backdrop-test-notify-\(UUID().uuidString)"
        _ = bk_unlink(path)
        return NotifyListener(kernelAddress: Array(path.utf8), spelling: path, path: path)
    }

    private init(kernelAddress: [UInt8], spelling: String, path: String?) {
        let bound = kernelAddress.withUnsafeBufferPointer { bk_unix_dgram_bind($0.baseAddress, $0.count) }
        if bound < 0 { fatalError("bind \(spelling): errno \(bk_errno())") }
        self.fd = bound
        self.spelling = spelling
        self.path = path
    }

    /// The next queued datagram as text, or nil when none is queued.
    public func receive() -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let got = buffer.withUnsafeMutableBytes { bk_unix_dgram_receive(fd, $0.baseAddress, $0.count) }
        guard got >= 0 else { return nil }
        return String(decoding: buffer[0..<got], as: UTF8.self)
    }

    deinit {
        _ = bk_close(fd)
        if let path { _ = bk_unlink(path) }
    }
}
