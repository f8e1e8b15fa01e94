/// Decides which nodes carry colour and depth. Pure: fed with `DeviceDescription`s, so the rules
/// are tested without hardware (DeviceProbe gathers the descriptions from the kernel).
///
/// Depth: a node offering Z16 (or 16-bit grey); a dedicated depth node (no colour formats) wins
/// over a general camera listing grey, Z16 over Y16, then the lower node number.
/// Nodes whose USB interface names their stream (`DeviceDescription.role`, a RealSense) are only
/// taken for that stream.
/// Colour: a colour-capable node other than the depth node, preferring the same physical camera
/// (same bus_info), then the same driver (two v4l2loopback nodes fed as one camera), then the
/// lower node number.
public enum CameraSelector {
    public static func select(color: NodeChoice, depth: NodeChoice,
                              devices unordered: [DeviceDescription]) throws(CaptureError) -> CameraSelection {
        var selection = try choose(color: color, depth: depth, devices: unordered)
        selection.realSense = unordered.first { $0.path == selection.depthPath }?.realSense
        return selection
    }

    private static func choose(color: NodeChoice, depth: NodeChoice,
                               devices unordered: [DeviceDescription]) throws(CaptureError) -> CameraSelection {
        let devices = unordered.sorted { pathPrecedes($0.path, $1.path) }
        switch (color, depth) {
        case (.path(let colorPath), .path(let depthPath)):
            let colorNode = try named(colorPath, in: devices, role: "colour")
            let depthNode = try named(depthPath, in: devices, role: "depth")
            return CameraSelection(colorPath: colorNode.path, depthPath: depthNode.path, reason: "both nodes named")
        case (.path(let colorPath), .auto):
            let colorNode = try named(colorPath, in: devices, role: "colour")
            let (depthNode, why) = try pickDepth(devices, companion: colorNode)
            return CameraSelection(colorPath: colorNode.path, depthPath: depthNode.path,
                                   reason: "colour named; depth \(why)")
        case (.auto, .path(let depthPath)):
            let depthNode = try named(depthPath, in: devices, role: "depth")
            let (colorNode, why) = try pickColor(devices, depthNode: depthNode)
            return CameraSelection(colorPath: colorNode.path, depthPath: depthNode.path,
                                   reason: "depth named; colour \(why)")
        case (.auto, .auto):
            let (depthNode, depthWhy) = try pickDepth(devices, companion: nil)
            let (colorNode, colorWhy) = try pickColor(devices, depthNode: depthNode)
            return CameraSelection(colorPath: colorNode.path, depthPath: depthNode.path,
                                   reason: "depth \(depthWhy); colour \(colorWhy)")
        }
    }

    /// Node order by number, so /dev/video2 comes before /dev/video10.
    public static func pathPrecedes(_ a: String, _ b: String) -> Bool {
        let (stemA, numberA) = split(a), (stemB, numberB) = split(b)
        if stemA != stemB { return stemA < stemB }
        return numberA < numberB
    }

    private static func split(_ path: String) -> (Substring, Int) {
        var digitsStart = path.endIndex
        while digitsStart > path.startIndex {
            let previous = path.index(before: digitsStart)
            guard let ascii = path[previous].asciiValue, ascii >= 48, ascii <= 57 else { break }
            digitsStart = previous
        }
        return (path[..<digitsStart], Int(path[digitsStart...]) ?? -1)
    }

    private static func named(_ path: String, in devices: [DeviceDescription], role: String) throws(CaptureError) -> DeviceDescription {
        guard let node = devices.first(where: { $0.path == path }) else {
            throw .notFound("\(role) node \(path): not a V4L2 device")
        }
        let fits = role == "depth" ? node.offersDepth : node.offersColor
        guard fits else {
            throw .unsupported(path: path, reason: "cannot stream \(role) (offers \(node.summary))")
        }
        return node
    }

    private static func pickDepth(_ devices: [DeviceDescription], companion: DeviceDescription?) throws(CaptureError) -> (DeviceDescription, String) {
        var best: (node: DeviceDescription, rank: Int)? = nil
        for node in devices where node.offersDepth && node.namedRole != .color && node.namedRole != .infrared {
            if let companion, node.isSameNode(as: companion) { continue }
            var rank = 0
            if let companion, node.busInfo != companion.busInfo { rank += 4 }
            if !node.isDedicatedDepth { rank += 2 }
            if !node.offers(.z16) { rank += 1 }
            if best == nil || rank < best!.rank { best = (node, rank) }
        }
        guard let best else {
            throw .notFound("no V4L2 node offers Z16 or Y16 depth\(inventory(devices))")
        }
        let format = best.node.offers(.z16) ? "Z16" : "Y16"
        var why = "\(best.node.path) offers \(format)"
        if let companion, best.node.busInfo == companion.busInfo { why += " on the colour node's bus" }
        return (best.node, why)
    }

    private static func pickColor(_ devices: [DeviceDescription], depthNode: DeviceDescription) throws(CaptureError) -> (DeviceDescription, String) {
        var best: (node: DeviceDescription, rank: Int)? = nil
        // A node whose interface names depth or infrared is never the colour stream, whatever it
        // lists (a D435's infrared node offers UYVY).
        for node in devices where node.offersColor && !node.isSameNode(as: depthNode)
            && node.namedRole != .depth && node.namedRole != .infrared {
            var rank = 0
            if node.busInfo != depthNode.busInfo { rank += 4 }
            // A node read only through libv4lconvert costs a CPU pass per frame, and on a depth
            // camera it is often the infrared stream (a D435 lists UYVY there): a native colour
            // node wins, but a converted one on the depth node's bus still beats one elsewhere.
            if !node.offersNativeColor { rank += 2 }
            if node.driver != depthNode.driver { rank += 1 }
            if best == nil || rank < best!.rank { best = (node, rank) }
        }
        guard let best else {
            throw .notFound("no colour node besides depth node \(depthNode.path)\(inventory(devices))")
        }
        let why: String
        if best.node.busInfo == depthNode.busInfo {
            why = "\(best.node.path) on the same bus (\(depthNode.busInfo))"
        } else if best.node.driver == depthNode.driver {
            why = "\(best.node.path), same driver as depth (\(depthNode.driver))"
        } else {
            why = "\(best.node.path), first colour node"
        }
        return (best.node, why)
    }

    private static func inventory(_ devices: [DeviceDescription]) -> String {
        if devices.isEmpty { return " (no V4L2 nodes found)" }
        var text = "; found:"
        for node in devices { text += " " + node.summary }
        return text
    }
}
