/// GET_ADV group 9 (depth table control): u32 depth units in micrometres, then the clamps and
/// disparity settings Backdrop does not use. A D435 says 1000 (1 mm), a D405 100 (0.1 mm).
public enum RealSenseDepthUnits {
    public static let payloadBytes = 20

    /// Millimetres per raw depth unit.
    public static func millimetres(payload: ArraySlice<UInt8>) throws(CalibrationError) -> Float {
        guard payload.count >= payloadBytes else {
            throw .short(what: "GET_ADV depth table control", count: payload.count, needed: payloadBytes)
        }
        let micrometres = CalibrationBytes(payload).u32(0)
        // The config's own range for depth_unit_mm (0.001..100 mm).
        guard micrometres >= 1, micrometres <= 100_000 else {
            throw .absurd(table: "depth table control", what: "the depth unit", value: "\(micrometres) µm")
        }
        return Float(micrometres) / 1000
    }
}
