import CKernel
import KernelIO

/// Tells the service manager how the service is doing: one SOCK_DGRAM datagram per message to the
/// AF_UNIX address in NOTIFY_SOCKET, as sd_notify(3) documents the protocol.
///
/// Written against the protocol rather than linking libsystemd's sd_notify: the protocol is one
/// sendto() of "KEY=VALUE" lines, stable and documented; libsystemd.so.0 would add a NEEDED library
/// (with libgcrypt, liblzma, libzstd, liblz4 and libcap behind it) to a binary that also runs where
/// no systemd is (a development machine, the virtual board's guest), and sd_notify opens and closes
/// a socket on every call, where a heartbeat wants one syscall.
///
/// Owns one socket for its lifetime, so a ping is one syscall with no allocation. Sends never block
/// (a full receiver queue fails with EAGAIN, which the caller may ignore: the next heartbeat pings
/// again). Not shared between threads: the loop that decides when to notify owns it.
/// When NOTIFY_SOCKET is unset (not started by systemd) every message is a no-op.
public struct ServiceNotifier: ~Copyable {
    private let socket: Int32
    private let address: [UInt8]
    /// The period systemd's watchdog expects pings within; nil when none was asked for.
    public let watchdogInterval: WatchdogInterval?

    /// Reads NOTIFY_SOCKET, WATCHDOG_USEC and WATCHDOG_PID from this process's environment.
    public static func fromEnvironment() throws(ServiceSetupError) -> ServiceNotifier {
        try ServiceNotifier(notifySocket: ProcessArguments.environment("NOTIFY_SOCKET"),
                            watchdogUSec: ProcessArguments.environment("WATCHDOG_USEC"),
                            watchdogPID: ProcessArguments.environment("WATCHDOG_PID"),
                            ownPID: bk_getpid())
    }

    /// The environment's values passed in (tests, or a caller that read them itself).
    public init(notifySocket: String?, watchdogUSec: String? = nil, watchdogPID: String? = nil,
                ownPID: Int32) throws(ServiceSetupError) {
        guard let notifySocket, !notifySocket.isEmpty else {
            socket = -1
            address = []
            watchdogInterval = nil
            return
        }
        let parsed: NotifyAddress
        do { parsed = try NotifyAddress(parsing: notifySocket) } catch { throw .address(error) }
        let fd = bk_unix_dgram_socket()
        guard fd >= 0 else { throw .socket(SystemError("socket(AF_UNIX, SOCK_DGRAM)")) }
        socket = fd
        address = parsed.bytes
        watchdogInterval = WatchdogInterval(usec: watchdogUSec, pid: watchdogPID, ownPID: ownPID)
    }

    /// Whether messages go anywhere (false when not started by a service manager).
    public var isConnected: Bool { socket >= 0 }

    /// READY=1: start-up is finished; for the booth, its event loop runs (devices may still be away).
    public func ready() throws(SystemError) { try send("READY=1") }

    /// STATUS=line, shown by `systemctl status`. A newline would start a new assignment in the
    /// protocol, so line breaks become spaces.
    public func status(_ line: String) throws(SystemError) {
        guard isConnected else { return }
        var message = Array("STATUS=".utf8)
        message.reserveCapacity(message.count + line.utf8.count)
        for byte in line.utf8 { message.append(byte == 10 || byte == 13 ? 32 : byte) }
        if let failure = message.withUnsafeBytes({ transmit($0) }) { throw failure }
    }

    /// WATCHDOG=1: the loop is alive. Call from the loop itself, every `pingEveryNanoseconds`.
    public func watchdog() throws(SystemError) { try send("WATCHDOG=1") }

    /// STOPPING=1: shutting down on request, so a slow exit is not taken for a hang.
    public func stopping() throws(SystemError) { try send("STOPPING=1") }

    private func send(_ message: StaticString) throws(SystemError) {
        guard isConnected else { return }
        if let failure = transmit(UnsafeRawBufferPointer(start: message.utf8Start, count: message.utf8CodeUnitCount)) {
            throw failure
        }
    }

    /// One datagram; the failure (errno taken right after the call) or nil.
    private func transmit(_ bytes: UnsafeRawBufferPointer) -> SystemError? {
        let sent = address.withUnsafeBufferPointer { target in
            bk_unix_dgram_send(socket, target.baseAddress, target.count, bytes.baseAddress, bytes.count)
        }
        guard sent != bytes.count else { return nil }
        // A datagram is sent whole or not at all; a short count would mean a kernel that split it.
        return SystemError("notify \(NotifyAddress.printable(address))", sent < 0 ? .current : Errno(Int32(BK_EINVAL)))
    }

    deinit { if socket >= 0 { _ = bk_close(socket) } }
}

/// Why a notifier could not be made from the environment.
public enum ServiceSetupError: Error, Equatable {
    case address(NotifyAddressError)
    case socket(SystemError)

    public var message: String {
        switch self {
        case .address(let error): return error.message
        case .socket(let error): return error.message
        }
    }
}

extension NotifyAddress {
    /// The address as NOTIFY_SOCKET spelt it, for messages.
    static func printable(_ bytes: [UInt8]) -> String {
        var spelt = bytes
        if spelt.first == 0 { spelt[0] = UInt8(ascii: "@") }
        return String(decoding: spelt, as: UTF8.self)
    }
}
