/// Numbers from a camera's tables as text, for messages and `backdrop cameras`: Float's own
/// description is not available in Embedded Swift, and a hostile table may hold NaN, infinities
/// or values too large for an integer conversion, which must print rather than trap.
public enum CalibrationText {
    /// Fixed point with `places` decimals (0...6); "nan", "inf", "-inf", or "±huge" past 1e9.
    public static func decimal(_ value: Float, places: Int = 3) -> String {
        if value.isNaN { return "nan" }
        if value.isInfinite { return value < 0 ? "-inf" : "inf" }
        let negative = value < 0
        let magnitude = negative ? -value : value
        if magnitude >= 1e9 { return negative ? "-huge" : "huge" }
        let digits = max(0, min(6, places))
        var scale = 1
        for _ in 0..<digits { scale *= 10 }
        let scaled = Int(Double(magnitude) * Double(scale) + 0.5)
        var text = "\(scaled / scale)"
        if digits > 0 {
            var fraction = "\(scaled % scale)"
            while fraction.count < digits { fraction = "0" + fraction }
            text += "." + fraction
        }
        return (negative && scaled != 0 ? "-" : "") + text
    }

    public static func list(_ values: [Float], places: Int = 4) -> String {
        var text = ""
        for value in values { text += (text.isEmpty ? "" : ", ") + decimal(value, places: places) }
        return "(" + text + ")"
    }

    public static func vector(_ value: SIMD3<Float>, places: Int = 3) -> String {
        list([value.x, value.y, value.z], places: places)
    }
}
