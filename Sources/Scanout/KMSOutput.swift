import CDRM
import CKernel
import Frames

/// The chain that puts pixels on one display: connector → CRTC → primary plane (and an overlay
/// plane with alpha, and a writeback connector, where the hardware has them), with their property
/// IDs resolved once.
public struct KMSOutput {
    public let connectorID: UInt32
    /// "HDMI-A-1", "Virtual-1": what a person calls the port.
    public let connectorName: String
    public let crtcID: UInt32
    public let primaryPlaneID: UInt32
    /// A plane above the primary that scans out ARGB8888 (per-pixel alpha), if any.
    public let overlayPlaneID: UInt32?
    /// A writeback connector that can capture this CRTC, if any.
    public let writebackConnectorID: UInt32?
    public let mode: DisplayMode
    let connector: KMSProperties
    let crtc: KMSProperties
    let primary: KMSProperties
    let overlay: KMSProperties?
    let writeback: KMSProperties?
    /// Other planes currently showing something on our CRTC (a console's, a previous run's);
    /// the first commit switches them off.
    let strayPlanes: [KMSProperties]

    /// The first connected connector with a CRTC and an XRGB8888 primary plane, in the mode asked
    /// for (`wanted`, else the one `DisplayMode.choose` takes within `budget`). Throws
    /// `.noDisplayConnected` when nothing is plugged in, so the caller can wait and try again.
    public static func find(card: KMSCard, wanted: FrameSize? = nil,
                            budget: DisplayMode.Budget = .unbounded) throws(ScanoutError) -> KMSOutput {
        let fd = card.fd
        guard let resources = drmModeGetResources(fd) else { throw .unsupported("\(card.path) lost its KMS resources") }
        defer { drmModeFreeResources(resources) }
        var crtcs: [UInt32] = []
        for index in 0..<Int(resources.pointee.count_crtcs) { crtcs.append(resources.pointee.crtcs[index]) }
        var connected: [(id: UInt32, name: String, modes: [DisplayMode], crtcMask: UInt32)] = []
        var writebacks: [(id: UInt32, crtcMask: UInt32)] = []
        for index in 0..<Int(resources.pointee.count_connectors) {
            // GetConnector (not ...Current) so the first look probes the display for its modes.
            guard let connector = drmModeGetConnector(fd, resources.pointee.connectors[index]) else { continue }
            defer { drmModeFreeConnector(connector) }
            let mask = Self.crtcMask(fd: fd, connector: connector)
            if connector.pointee.connector_type == UInt32(BK_DRM_MODE_CONNECTOR_WRITEBACK) {
                writebacks.append((connector.pointee.connector_id, mask))
                continue
            }
            guard connector.pointee.connection == DRM_MODE_CONNECTED, connector.pointee.count_modes > 0 else { continue }
            var modes: [DisplayMode] = []
            for modeIndex in 0..<Int(connector.pointee.count_modes) { modes.append(DisplayMode(connector.pointee.modes[modeIndex])) }
            let typeName = drmModeGetConnectorTypeName(connector.pointee.connector_type).map { String(cString: $0) } ?? "Unknown"
            connected.append((connector.pointee.connector_id, "\(typeName)-\(connector.pointee.connector_type_id)", modes, mask))
        }
        guard let chosen = connected.first else { throw .noDisplayConnected }
        guard let crtcIndex = crtcs.indices.first(where: { chosen.crtcMask & (1 << UInt32($0)) != 0 }) else {
            throw .unsupported("\(chosen.name) has no usable CRTC")
        }
        guard let mode = DisplayMode.choose(chosen.modes, wanted: wanted, budget: budget) else {
            var smallest = chosen.modes[0].size
            for mode in chosen.modes where mode.size.pixelCount < smallest.pixelCount { smallest = mode.size }
            throw .unsupported("no mode of \(chosen.name) fits the display memory (CMA) free: \(budget.buffers) buffers of "
                + "\(smallest.description) need \(budget.bytes(for: smallest) >> 20) MB, \((budget.bytes ?? 0) >> 20) MB are free; "
                + "give the kernel more with cma= on the command line")
        }
        let planes = Self.planes(fd: fd, crtcIndex: crtcIndex)
        guard let primary = planes.first(where: { $0.type == UInt64(BK_DRM_PLANE_TYPE_PRIMARY) && $0.xrgb }) else {
            throw .unsupported("no primary plane for XRGB8888 on CRTC \(crtcs[crtcIndex])")
        }
        let overlay = planes.first(where: { $0.type == UInt64(BK_DRM_PLANE_TYPE_OVERLAY) && $0.argb })
        let crtcID = crtcs[crtcIndex]
        var strays: [KMSProperties] = []
        for plane in planes where plane.id != primary.id && plane.id != overlay?.id {
            if plane.properties.value("CRTC_ID") == UInt64(crtcID) { strays.append(plane.properties) }
        }
        let writeback = writebacks.first(where: { $0.crtcMask & (1 << UInt32(crtcIndex)) != 0 })
        return KMSOutput(
            connectorID: chosen.id, connectorName: chosen.name, crtcID: crtcID,
            primaryPlaneID: primary.id, overlayPlaneID: overlay?.id, writebackConnectorID: writeback?.id, mode: mode,
            connector: KMSProperties(fd: fd, objectID: chosen.id, objectType: UInt32(BK_DRM_MODE_OBJECT_CONNECTOR)),
            crtc: KMSProperties(fd: fd, objectID: crtcID, objectType: UInt32(BK_DRM_MODE_OBJECT_CRTC)),
            primary: primary.properties, overlay: overlay?.properties,
            writeback: writeback.map { KMSProperties(fd: fd, objectID: $0.id, objectType: UInt32(BK_DRM_MODE_OBJECT_CONNECTOR)) },
            strayPlanes: strays)
    }

    /// Whether the connector is still connected, from the driver's last hotplug state (no probe).
    public static func isConnected(card: KMSCard, connectorID: UInt32) -> Bool {
        bk_drm_connector_status(card.fd, connectorID) == 1
    }

    private static func crtcMask(fd: Int32, connector: UnsafeMutablePointer<drmModeConnector>) -> UInt32 {
        var mask: UInt32 = 0
        for index in 0..<Int(connector.pointee.count_encoders) {
            guard let encoder = drmModeGetEncoder(fd, connector.pointee.encoders[index]) else { continue }
            mask |= encoder.pointee.possible_crtcs
            drmModeFreeEncoder(encoder)
        }
        return mask
    }

    private struct Plane {
        let id: UInt32
        let type: UInt64
        let xrgb: Bool
        let argb: Bool
        let properties: KMSProperties
    }

    private static func planes(fd: Int32, crtcIndex: Int) -> [Plane] {
        guard let list = drmModeGetPlaneResources(fd) else { return [] }
        defer { drmModeFreePlaneResources(list) }
        var result: [Plane] = []
        let xrgb = PixelFormat.xrgb8888.drmFourCC!
        let argb = PixelFormat.argb8888.drmFourCC!
        for index in 0..<Int(list.pointee.count_planes) {
            guard let plane = drmModeGetPlane(fd, list.pointee.planes[index]) else { continue }
            defer { drmModeFreePlane(plane) }
            guard plane.pointee.possible_crtcs & (1 << UInt32(crtcIndex)) != 0 else { continue }
            var hasXRGB = false
            var hasARGB = false
            for formatIndex in 0..<Int(plane.pointee.count_formats) {
                let format = plane.pointee.formats[formatIndex]
                if format == xrgb { hasXRGB = true }
                if format == argb { hasARGB = true }
            }
            let properties = KMSProperties(fd: fd, objectID: plane.pointee.plane_id, objectType: UInt32(BK_DRM_MODE_OBJECT_PLANE))
            result.append(Plane(id: plane.pointee.plane_id, type: properties.value("type") ?? UInt64.max,
                                xrgb: hasXRGB, argb: hasARGB, properties: properties))
        }
        return result
    }
}
