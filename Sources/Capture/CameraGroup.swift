/// One physical camera: the V4L2 nodes that share a bus_info (a USB camera makes one per
/// streaming interface plus a metadata node each), in node order. Pure, for `backdrop cameras`.
public struct CameraGroup: Equatable, Sendable {
    public var busInfo: String
    public var nodes: [DeviceDescription]

    /// Groups `devices` by bus_info, keeping the order of each group's first node.
    public static func group(_ devices: [DeviceDescription]) -> [CameraGroup] {
        var groups: [CameraGroup] = []
        for node in devices.sorted(by: { CameraSelector.pathPrecedes($0.path, $1.path) }) {
            if let index = groups.firstIndex(where: { $0.busInfo == node.busInfo }) {
                groups[index].nodes.append(node)
            } else {
                groups.append(CameraGroup(busInfo: node.busInfo, nodes: [node]))
            }
        }
        return groups
    }

    /// The USB interface's name without its stream word ("Intel(R) RealSense(TM) Depth Camera
    /// 435"), else the card name.
    public var name: String {
        for node in nodes where node.namedRole != .unknown {
            var words = node.identity.interfaceName.split(separator: " ")
            words.removeLast()
            if !words.isEmpty { return words.joined(separator: " ") }
        }
        return nodes.first?.card ?? ""
    }

    public var realSense: RealSenseModel? { nodes.lazy.compactMap { $0.realSense }.first }

    /// The node depth would be read from: a depth-role node offering Z16 or Y16.
    public var depthNode: DeviceDescription? {
        nodes.first { $0.role == .depth && $0.offersDepth } ?? nodes.first { $0.offersDepth && $0.namedRole == .unknown }
    }

    public var colorNode: DeviceDescription? {
        let depth = depthNode
        return nodes.first { $0.role == .color && !(depth.map($0.isSameNode) ?? false) }
            ?? nodes.first { $0.offersColor && $0.namedRole == .unknown && !(depth.map($0.isSameNode) ?? false) }
    }
}
