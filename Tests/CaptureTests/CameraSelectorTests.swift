import Frames
import Testing
@testable import Capture

/// Device inventories as the kernel reports them, for the node-choice rules.
private enum Inventory {
    static let yuyv = fourCC("YUYV"), mjpg = fourCC("MJPG"), z16 = fourCC("Z16 "), y16 = fourCC("Y16 ")
    static let grey = fourCC("GREY"), uyvy = fourCC("UYVY"), y8i = fourCC("Y8I ")

    /// A RealSense D435 under uvcvideo: depth, infrared and colour nodes plus metadata nodes, all
    /// on one USB bus_info, after a laptop webcam that enumerated first.
    static let realSenseAfterWebcam: [DeviceDescription] = [
        DeviceDescription(path: "/dev/video0", driver: "uvcvideo", card: "Integrated Camera",
                          busInfo: "usb-0000:00:14.0-6", formats: [mjpg, yuyv]),
        DeviceDescription(path: "/dev/video1", driver: "uvcvideo", card: "Integrated Camera",
                          busInfo: "usb-0000:00:14.0-6", canStream: false, formats: []),
        DeviceDescription(path: "/dev/video2", driver: "uvcvideo", card: "Intel RealSense D435",
                          busInfo: "usb-0000:00:14.0-3", formats: [z16]),
        DeviceDescription(path: "/dev/video3", driver: "uvcvideo", card: "Intel RealSense D435",
                          busInfo: "usb-0000:00:14.0-3", canStream: false, formats: []),
        DeviceDescription(path: "/dev/video4", driver: "uvcvideo", card: "Intel RealSense D435",
                          busInfo: "usb-0000:00:14.0-3", formats: [grey, y8i, uyvy]),
        DeviceDescription(path: "/dev/video10", driver: "uvcvideo", card: "Intel RealSense D435",
                          busInfo: "usb-0000:00:14.0-3", formats: [yuyv]),
    ]

    /// The virtual board: vivid (which lists Z16 with our patch, and Y16) and two loopback nodes
    /// fed by a producer as colour and depth.
    static let virtualBoard: [DeviceDescription] = [
        DeviceDescription(path: "/dev/video0", driver: "vivid", card: "vivid", busInfo: "platform:vivid-000",
                          formats: [yuyv, uyvy, grey, y16, z16]),
        DeviceDescription(path: "/dev/video10", driver: "v4l2 loopback", card: "vboard-colour",
                          busInfo: "platform:v4l2loopback-000", formats: [yuyv]),
        DeviceDescription(path: "/dev/video11", driver: "v4l2 loopback", card: "vboard-depth",
                          busInfo: "platform:v4l2loopback-001", formats: [z16]),
    ]
}

@Suite struct CameraSelectorTests {
    @Test func autoPicksTheRealSenseDepthAndColourNodesNotTheWebcam() throws {
        let selection = try CameraSelector.select(color: .auto, depth: .auto, devices: Inventory.realSenseAfterWebcam)
        #expect(selection.depthPath == "/dev/video2")
        #expect(selection.colorPath == "/dev/video10")
        #expect(selection.reason.contains("same bus"))
    }

    @Test func inputOrderDoesNotMatterAndNodesSortByNumber() throws {
        let selection = try CameraSelector.select(color: .auto, depth: .auto,
                                                  devices: Inventory.realSenseAfterWebcam.reversed())
        #expect(selection.depthPath == "/dev/video2")
        #expect(selection.colorPath == "/dev/video10")
        #expect(CameraSelector.pathPrecedes("/dev/video2", "/dev/video10"))
        #expect(!CameraSelector.pathPrecedes("/dev/video10", "/dev/video2"))
    }

    @Test func aDedicatedDepthNodeBeatsACameraThatAlsoListsZ16() throws {
        let selection = try CameraSelector.select(color: .auto, depth: .auto, devices: Inventory.virtualBoard)
        #expect(selection.depthPath == "/dev/video11")
        // Not on the same bus, so the loopback colour node wins by sharing the depth node's driver.
        #expect(selection.colorPath == "/dev/video10")
    }

    @Test func twoViviDInstancesGiveDepthFromOneAndColourFromTheOther() throws {
        let vivid = [
            DeviceDescription(path: "/dev/video1", driver: "vivid", busInfo: "platform:vivid-001",
                              formats: [Inventory.yuyv, Inventory.z16]),
            DeviceDescription(path: "/dev/video0", driver: "vivid", busInfo: "platform:vivid-000",
                              formats: [Inventory.yuyv, Inventory.z16]),
        ]
        let selection = try CameraSelector.select(color: .auto, depth: .auto, devices: vivid)
        #expect(selection.depthPath == "/dev/video0")
        #expect(selection.colorPath == "/dev/video1")
    }

    /// A node read only through libv4lconvert is a colour camera, chosen after native ones.
    @Test func aConvertedColourNodeIsTakenOnlyWhenNoNativeOneFits() throws {
        let uyvyCamera = DeviceDescription(path: "/dev/video0", driver: "uvcvideo", busInfo: "usb-1",
                                           formats: [Inventory.uyvy])
        let depth = DeviceDescription(path: "/dev/video2", driver: "uvcvideo", busInfo: "usb-1", formats: [Inventory.z16])
        let alone = try CameraSelector.select(color: .auto, depth: .auto, devices: [uyvyCamera, depth])
        #expect(alone.colorPath == "/dev/video0")
        let native = DeviceDescription(path: "/dev/video4", driver: "uvcvideo", busInfo: "usb-1", formats: [Inventory.yuyv])
        let withNative = try CameraSelector.select(color: .auto, depth: .auto, devices: [uyvyCamera, depth, native])
        #expect(withNative.colorPath == "/dev/video4")
        // The depth camera's own bus still counts for more than the conversion's cost.
        let elsewhere = DeviceDescription(path: "/dev/video6", driver: "uvcvideo", busInfo: "usb-2", formats: [Inventory.yuyv])
        let withElsewhere = try CameraSelector.select(color: .auto, depth: .auto, devices: [uyvyCamera, depth, elsewhere])
        #expect(withElsewhere.colorPath == "/dev/video0")
    }

    @Test func z16IsPreferredOverSixteenBitGrey() throws {
        let devices = [
            DeviceDescription(path: "/dev/video0", busInfo: "a", formats: [Inventory.y16]),
            DeviceDescription(path: "/dev/video1", busInfo: "b", formats: [Inventory.z16]),
            DeviceDescription(path: "/dev/video2", busInfo: "c", formats: [Inventory.yuyv]),
        ]
        #expect(try CameraSelector.select(color: .auto, depth: .auto, devices: devices).depthPath == "/dev/video1")
    }

    @Test func sixteenBitGreyServesWhenThereIsNoZ16() throws {
        let devices = [
            DeviceDescription(path: "/dev/video0", driver: "vivid", busInfo: "platform:vivid-000",
                              formats: [Inventory.yuyv, Inventory.y16]),
            DeviceDescription(path: "/dev/video1", driver: "vivid", busInfo: "platform:vivid-001",
                              formats: [Inventory.yuyv]),
        ]
        let selection = try CameraSelector.select(color: .auto, depth: .auto, devices: devices)
        #expect(selection.depthPath == "/dev/video0")
        #expect(selection.colorPath == "/dev/video1")
        #expect(selection.reason.contains("Y16"))
    }

    @Test func namedColourPullsDepthFromTheSameCamera() throws {
        let selection = try CameraSelector.select(color: .path("/dev/video0"), depth: .auto,
                                                  devices: Inventory.realSenseAfterWebcam)
        // The webcam has no depth, so depth still comes from the RealSense.
        #expect(selection.depthPath == "/dev/video2")
        #expect(selection.colorPath == "/dev/video0")
    }

    @Test func aLinkToTheDepthNodeIsNotReusedForColour() throws {
        var devices = [
            DeviceDescription(path: "/dev/video0", busInfo: "usb-1", deviceNumber: 0x5100,
                              formats: [Inventory.z16, Inventory.yuyv]),
            DeviceDescription(path: "/dev/video1", busInfo: "usb-1", deviceNumber: 0x5101, formats: [Inventory.yuyv]),
        ]
        devices.append(DeviceDescription(path: "/dev/v4l/by-id/cam-depth", busInfo: "usb-1", deviceNumber: 0x5100,
                                         formats: [Inventory.z16, Inventory.yuyv]))
        let selection = try CameraSelector.select(color: .auto, depth: .path("/dev/v4l/by-id/cam-depth"), devices: devices)
        #expect(selection.colorPath == "/dev/video1")
    }

    @Test func noDepthNodeIsAnErrorThatListsWhatWasFound() {
        let devices = [DeviceDescription(path: "/dev/video0", driver: "uvcvideo", busInfo: "usb-1", formats: [Inventory.yuyv])]
        #expect {
            try CameraSelector.select(color: .auto, depth: .auto, devices: devices)
        } throws: { error in
            guard case .notFound(let text) = error as? CaptureError else { return false }
            return text.contains("Z16") && text.contains("/dev/video0") && text.contains("YUYV")
        }
    }

    @Test func noNodesAtAllSaysSo() {
        #expect(throws: CaptureError.notFound("no V4L2 node offers Z16 or Y16 depth (no V4L2 nodes found)")) {
            try CameraSelector.select(color: .auto, depth: .auto, devices: [])
        }
    }

    @Test func aSingleNodeCannotBeBothColourAndDepth() {
        let devices = [DeviceDescription(path: "/dev/video0", busInfo: "platform:vivid-000",
                                         formats: [Inventory.yuyv, Inventory.z16])]
        #expect(throws: CaptureError.self) {
            try CameraSelector.select(color: .auto, depth: .auto, devices: devices)
        }
    }

    @Test func namedNodesMustExistAndFitTheirRole() throws {
        #expect(throws: CaptureError.notFound("depth node /dev/video9: not a V4L2 device")) {
            try CameraSelector.select(color: .path("/dev/video0"), depth: .path("/dev/video9"),
                                      devices: Inventory.realSenseAfterWebcam)
        }
        #expect {
            try CameraSelector.select(color: .auto, depth: .path("/dev/video0"), devices: Inventory.realSenseAfterWebcam)
        } throws: { error in
            guard case .unsupported(let path, _) = error as? CaptureError else { return false }
            return path == "/dev/video0"
        }
        let both = try CameraSelector.select(color: .path("/dev/video10"), depth: .path("/dev/video2"),
                                             devices: Inventory.realSenseAfterWebcam)
        #expect(both == CameraSelection(colorPath: "/dev/video10", depthPath: "/dev/video2", reason: "both nodes named"))
    }

    @Test func nodesWithoutStreamingAreIgnored() {
        let devices = [
            DeviceDescription(path: "/dev/video0", busInfo: "a", canStream: false, formats: [Inventory.z16]),
            DeviceDescription(path: "/dev/video1", busInfo: "a", formats: [Inventory.yuyv]),
        ]
        #expect(throws: CaptureError.self) {
            try CameraSelector.select(color: .auto, depth: .auto, devices: devices)
        }
    }
}

/// Node roles from the USB interface's name (sysfs `device/interface`), and the RealSense model
/// by USB id reaching the selection.
@Suite struct NodeRoleSelectionTests {
    static let z16 = fourCC("Z16 "), yuyv = fourCC("YUYV"), uyvy = fourCC("UYVY"), grey = fourCC("GREY")
    static func d435(_ interface: String) -> SysfsIdentity {
        SysfsIdentity(interfaceName: "Intel(R) RealSense(TM) Depth Camera 435 " + interface, vendorID: 0x8086, productID: 0x0B07)
    }
    static let bus = "usb-0000:01:00.0-1"
    /// A D435 whose infrared node enumerates before the colour node and lists UYVY, as the
    /// calibration format: without the interface names it would pass for colour.
    static let nodes = [
        DeviceDescription(path: "/dev/video0", driver: "uvcvideo", busInfo: bus, formats: [z16], identity: d435("Depth")),
        DeviceDescription(path: "/dev/video1", driver: "uvcvideo", busInfo: bus, canStream: false, formats: [], identity: d435("Depth")),
        DeviceDescription(path: "/dev/video2", driver: "uvcvideo", busInfo: bus, formats: [grey, uyvy], identity: d435("IR")),
        DeviceDescription(path: "/dev/video4", driver: "uvcvideo", busInfo: bus, formats: [yuyv], identity: d435("RGB")),
        DeviceDescription(path: "/dev/video5", driver: "uvcvideo", busInfo: bus, canStream: false, formats: [], identity: d435("RGB")),
    ]

    @Test func rolesComeFromTheInterfaceNamesLastWord() {
        #expect(Self.nodes.map(\.role) == [.depth, .metadata, .infrared, .color, .metadata])
        #expect(NodeRole.named("Intel(R) RealSense(TM) Depth Camera 435 RGB") == .color)
        #expect(NodeRole.named("") == .unknown)
    }

    @Test func theSelectionCarriesTheModel() throws {
        let selection = try CameraSelector.select(color: .auto, depth: .auto, devices: Self.nodes)
        #expect(selection.depthPath == "/dev/video0" && selection.colorPath == "/dev/video4")
        #expect(selection.realSense == .d435)
        let group = try #require(CameraGroup.group(Self.nodes).first)
        #expect(group.name == "Intel(R) RealSense(TM) Depth Camera 435")
        #expect(group.depthNode?.path == "/dev/video0" && group.colorNode?.path == "/dev/video4")
    }

    @Test func aNamedInfraredNodeIsNeverColour() throws {
        let withoutRGB = Array(Self.nodes.prefix(3))
        #expect(throws: CaptureError.self) { try CameraSelector.select(color: .auto, depth: .auto, devices: withoutRGB) }
    }

    @Test func modelsByUSBId() {
        #expect(RealSenseModel.identify(vendor: 0x8086, product: 0x0B5B) == .d405)
        #expect(RealSenseModel.d405.defaultDepthUnitMM == 0.1 && RealSenseModel.d435.defaultDepthUnitMM == 1)
        #expect(RealSenseModel.identify(vendor: 0x8087, product: 0x0B07) == nil)
    }
}
