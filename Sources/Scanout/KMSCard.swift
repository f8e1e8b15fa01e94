import CDRM
import CKernel
import KernelIO

/// An open DRM card that can drive a display (KMS), found by capability, never by number.
/// Owns the fd; dropping the card drops DRM master so a console or another compositor can take over.
///
/// Threading: setup calls happen on the thread that creates the sink; afterwards only the sink uses
/// the card (one thread at a time).
public final class KMSCard {
    public let path: String
    public let driver: String
    let fd: Int32
    private let owner: FileDescriptorBox

    /// Opens `path`, or with nil the first /dev/dri/card* that has KMS resources (CRTCs and
    /// connectors), accepts the atomic API and has dumb buffers.
    public static func open(_ path: String? = nil) throws(ScanoutError) -> KMSCard {
        if let path { return try KMSCard(path: path) }
        var reasons: [String] = []
        for name in Self.cardNames() {
            do throws(ScanoutError) { return try KMSCard(path: "/dev/dri/" + name) } catch {
                reasons.append("/dev/dri/\(name): \(error.message)")
            }
        }
        if reasons.isEmpty { throw .noKMSCard("no /dev/dri/card* node") }
        var text = ""
        for (index, reason) in reasons.enumerated() { text += (index == 0 ? "" : "; ") + reason }
        throw .noKMSCard(text)
    }

    init(path: String) throws(ScanoutError) {
        let raw = bk_open(path, Int32(2) /* O_RDWR */, 0)
        guard raw >= 0 else { throw .system(SystemError("open \(path)")) }
        let owner = FileDescriptorBox(FileDescriptor(adopting: raw))
        var dumb: UInt64 = 0
        guard drmGetCap(raw, UInt64(BK_DRM_CAP_DUMB_BUFFER), &dumb) == 0, dumb != 0 else {
            throw .unsupported("\(path) has no dumb buffers")
        }
        guard drmSetClientCap(raw, UInt64(BK_DRM_CLIENT_CAP_UNIVERSAL_PLANES), 1) == 0,
              drmSetClientCap(raw, UInt64(BK_DRM_CLIENT_CAP_ATOMIC), 1) == 0 else {
            throw .unsupported("\(path) has no atomic modesetting")
        }
        // Writeback connectors are hidden unless asked for; not every driver has them.
        _ = drmSetClientCap(raw, UInt64(BK_DRM_CLIENT_CAP_WRITEBACK_CONNECTORS), 1)
        guard let resources = drmModeGetResources(raw) else { throw .unsupported("\(path) is not a KMS device") }
        let usable = resources.pointee.count_crtcs > 0 && resources.pointee.count_connectors > 0
        drmModeFreeResources(resources)
        guard usable else { throw .unsupported("\(path) has no CRTC or connector") }
        var name = "unknown"
        if let version = drmGetVersion(raw) {
            if let text = version.pointee.name { name = String(cString: text) }
            drmFreeVersion(version)
        }
        self.path = path
        self.driver = name
        self.fd = raw
        self.owner = owner
    }

    deinit {
        // Master goes with the last fd anyway; dropping it first makes the hand-over explicit.
        _ = drmDropMaster(fd)
    }

    /// Lends the card's fd for epoll (readable when a page-flip event is queued). Do not close it.
    public func withDescriptor<R>(_ body: (Int32) -> R) -> R { body(fd) }

    /// Releases DRM master (a VT switch or another process may then take the display).
    public func dropMaster() { _ = drmDropMaster(fd) }

    private static func cardNames() -> [String] {
        let names = ((try? DirectoryListing.names(in: "/dev/dri", capacityBytes: 4096)) ?? []).filter { $0.hasPrefix("card") }
        // Number order, so "card10" does not come before "card2".
        return names.sorted { (Int($0.dropFirst(4)) ?? 0) < (Int($1.dropFirst(4)) ?? 0) }
    }
}
