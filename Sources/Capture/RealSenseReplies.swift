import Frames

/// The raw replies a D4xx gave to the calibration commands, as read (1024 bytes each), so the
/// same parse serves the live camera, `backdrop cameras --dump` and `--calibration-from DIR`.
public struct RealSenseReplies: Equatable, Sendable {
    /// GETINTCAL 25.
    public var depthTable: [UInt8]
    /// GETINTCAL 32.
    public var colorTable: [UInt8]
    /// GET_ADV 9; nil when not asked (a dump that has none).
    public var depthUnits: [UInt8]?

    public init(depthTable: [UInt8], colorTable: [UInt8], depthUnits: [UInt8]? = nil) {
        self.depthTable = depthTable
        self.colorTable = colorTable
        self.depthUnits = depthUnits
    }

    public func parsedDepthTable() throws(CalibrationError) -> RealSenseDepthTable {
        try RealSenseDepthTable(payload: HardwareMonitor.payload(of: depthTable, for: .getIntCal))
    }

    public func parsedColorTable() throws(CalibrationError) -> RealSenseColorTable {
        try RealSenseColorTable(payload: HardwareMonitor.payload(of: colorTable, for: .getIntCal))
    }

    /// Millimetres per depth unit; nil when there is no GET_ADV reply.
    public func depthUnitMM() throws(CalibrationError) -> Float? {
        guard let depthUnits else { return nil }
        return try RealSenseDepthUnits.millimetres(payload: HardwareMonitor.payload(of: depthUnits, for: .getAdv))
    }

    /// Both tables parsed and checked, the intrinsics taken for these stream sizes. A depth-unit
    /// reply that does not parse leaves the unit unknown (the caller keeps the config's) rather
    /// than refusing a good calibration; `depthUnitMM()` says why.
    public func calibration(depthSize: FrameSize, colorSize: FrameSize, source: String) throws(CalibrationError) -> CameraCalibration {
        try CameraCalibration(depthTable: parsedDepthTable(), colorTable: parsedColorTable(), depthSize: depthSize,
                              colorSize: colorSize, depthUnitMM: try? depthUnitMM(), source: source)
    }
}
