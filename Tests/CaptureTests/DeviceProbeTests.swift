import Testing
@testable import Capture

@Suite struct DeviceProbeTests {
    @Test func aFolderWithoutVideoNodesScansEmpty() {
        #expect(DeviceProbe.scan(directory: "/proc/self").isEmpty)
        #expect(DeviceProbe.scan(directory: "/nonexistent-folder").isEmpty)
    }

    @Test func aMissingNodeIsNotFound() {
        #expect(throws: CaptureError.notFound("/dev/video-missing: no such device node")) {
            try DeviceProbe.describe(path: "/dev/video-missing")
        }
    }

    @Test func aNodeThatIsNotV4L2FailsQueryCap() {
        #expect {
            try DeviceProbe.describe(path: "/dev/null")
        } throws: { error in
            guard case .system(let failure) = error as? CaptureError else { return false }
            return failure.operation == "VIDIOC_QUERYCAP /dev/null"
        }
    }

    @Test func kernelStringsStopAtTheFirstNul() {
        let field: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0x76, 0x69, 0x76, 0x69, 0x64, 0)
        #expect(DeviceProbe.text(field) == "vivid")
        let full: (UInt8, UInt8) = (0x41, 0x42)
        #expect(DeviceProbe.text(full) == "AB")
    }
}
