import Foundation
@testable import Capture

/// The V4L2 nodes of the machine running the tests. Hardware tests skip with these reasons when
/// the nodes are missing; tests/vboard/capture.sh runs them on the virtual board.
enum VideoNodes {
    static let devices = DeviceProbe.scan()

    /// A node that streams YUYV (vivid's capture node on the virtual board).
    static let yuyvNode = devices.first { $0.offers(.yuyv) }
    static let vividNode = devices.first { $0.driver == "vivid" && $0.offers(.yuyv) }
    static let depthNode = devices.first { $0.offersDepth }
    /// What `auto` picks among vivid's nodes alone. The loopback nodes keep offering capture after
    /// their producer stops, so tests that stream from vivid name the nodes `auto` chose here.
    static let vividPair: CameraSelection? = try? CameraSelector.select(
        color: .auto, depth: .auto, devices: devices.filter { $0.driver == "vivid" })

    static let noYUYV = "no /dev/video* node streams YUYV here (tests/vboard/capture.sh runs this on vivid)"
    static let noVivid = "no vivid node here (its error-injection controls drive this test; tests/vboard/capture.sh)"
    static let noDepth = "no /dev/video* node offers Z16 or Y16 here (tests/vboard/capture.sh runs this on vivid)"
    static let noPair = "no pair of vivid nodes here (the virtual board loads two vivid instances: tests/vboard/capture.sh)"
    static let noLoopback = "no v4l2loopback nodes /dev/video10 and /dev/video11 here (the virtual board has them: tests/vboard/capture.sh)"
    static let noMJPEGLoopback = "no third v4l2loopback node /dev/video12 here (tests/vboard/capture-guest.sh creates it)"
    static let noUYVYLoopback = "no fourth v4l2loopback node /dev/video13 here (tests/vboard/capture-guest.sh creates it)"
    /// Unplug and module reload change the machine's devices, so they run only where asked.
    static let faultsAllowed = ProcessInfo.processInfo.environment["BACKDROP_VBOARD_FAULTS"] == "1"
    static let noFaults = "unplug/reload test runs only on the virtual board (BACKDROP_VBOARD_FAULTS=1, tests/vboard/capture.sh)"
}
