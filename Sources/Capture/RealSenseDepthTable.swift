import Frames

/// GETINTCAL table 25 ("coefficients"): the stereo pair's calibration. Backdrop needs only the
/// rectified depth image's pinhole per resolution (`rect_params`, no distortion) and the baseline.
/// Layout after the 16-byte header: four float 3x3 (left and right intrinsics, two rotations),
/// float baseline (mm) at 160, u32 Brown model flag, 88 reserved bytes, then at 256 sixteen
/// {fx, fy, ppx, ppy} indexed by resolution; 576 bytes in all.
public struct RealSenseDepthTable: Equatable, Sendable {
    public static let tableBytes = 576
    public var version: UInt16
    public var baselineMM: Float
    /// The rectified pinholes the table lists, by the resolution their slot stands for.
    public var rectified: [(size: FrameSize, intrinsics: PinholeIntrinsics)]

    /// Which `rect_params` slot holds which resolution (the firmware's order, with its gaps).
    static let slots: [(index: Int, size: FrameSize)] = [
        (0, FrameSize(width: 1920, height: 1080)), (1, FrameSize(width: 1280, height: 720)),
        (2, FrameSize(width: 640, height: 480)), (3, FrameSize(width: 848, height: 480)),
        (4, FrameSize(width: 640, height: 360)), (5, FrameSize(width: 424, height: 240)),
        (6, FrameSize(width: 320, height: 240)), (7, FrameSize(width: 480, height: 270)),
        (8, FrameSize(width: 1280, height: 800)), (9, FrameSize(width: 960, height: 540)),
        (12, FrameSize(width: 640, height: 400)),
    ]
    static let rectOffset = 256

    public static func == (a: RealSenseDepthTable, b: RealSenseDepthTable) -> Bool {
        a.version == b.version && a.baselineMM == b.baselineMM && a.rectified.count == b.rectified.count
            && zip(a.rectified, b.rectified).allSatisfy { $0.size == $1.size && $0.intrinsics == $1.intrinsics }
    }

    /// From a GETINTCAL reply's payload (see `HardwareMonitor.payload`).
    public init(payload: ArraySlice<UInt8>) throws(CalibrationError) {
        let name = HardwareMonitor.Table.depth.name
        let header = try CalibrationTableHeader.read(payload, table: name,
                                                     minimumBody: Self.tableBytes - CalibrationTableHeader.size)
        let bytes = CalibrationBytes(payload)
        version = header.version
        baselineMM = bytes.float(160)
        rectified = Self.slots.map { slot in
            let values = bytes.floats(Self.rectOffset + 16 * slot.index, count: 4)
            return (slot.size, PinholeIntrinsics(fx: values[0], fy: values[1], cx: values[2], cy: values[3]))
        }
        guard baselineMM.isFinite, abs(baselineMM) > 1, abs(baselineMM) < 1000 else {
            throw .absurd(table: name, what: "the stereo baseline", value: CalibrationText.decimal(baselineMM) + " mm")
        }
    }

    /// The depth image's pinhole at `size`: the table's own entry when it lists that size, else
    /// the 1920x1080 entry scaled (how librealsense serves sizes the table does not list).
    /// Refused when the entry is not a camera's (zero, negative or NaN focal length, principal
    /// point off the image).
    public func intrinsics(for size: FrameSize) throws(CalibrationError) -> PinholeIntrinsics {
        let name = HardwareMonitor.Table.depth.name
        let entry: PinholeIntrinsics
        if let listed = rectified.first(where: { $0.size == size }) {
            entry = listed.intrinsics
        } else {
            let full = rectified[0]
            entry = full.intrinsics.scaled(x: Float(size.width) / Float(full.size.width),
                                           y: Float(size.height) / Float(full.size.height))
        }
        try CameraCalibration.check(entry, size: size, table: name)
        return entry
    }
}
