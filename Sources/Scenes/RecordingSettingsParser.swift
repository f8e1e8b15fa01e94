/// Collects `RecordingSettings` values from libinih's callback; a class so the C callback can
/// reach it through an unmanaged pointer.
final class RecordingSettingsParser {
    var settings = RecordingSettings()
    var fx: Float?, fy: Float?, cx: Float?, cy: Float?
    var depthWidth: Int?, depthHeight: Int?
    var failure: String?

    func accept(section: String, name: String, value: String) -> Bool {
        let key = "[\(section)] \(name)"
        switch (section, name) {
        case ("depth", "unit_mm"):
            // Bounded as [camera] depth_unit_mm is: a positive value too small for a Float became
            // 0 (found by fuzzing), and every depth reading with it.
            guard let number = Self.decimal(value), number >= 0.001, number <= 100 else {
                return fail(key, value, "millimetres per depth unit, 0.001 to 100")
            }
            settings.unitMM = Float(number)
        case ("depth", "registered"):
            switch value {
            case "true", "yes", "1": settings.registered = true
            case "false", "no", "0": settings.registered = false
            default: return fail(key, value, "true or false")
            }
        case ("depth", "width"), ("depth", "height"):
            guard let number = Self.decimal(value), number >= 1, number <= 16384, number == number.rounded() else {
                return fail(key, value, "a whole number of pixels, 1 to 16384")
            }
            if name == "width" { depthWidth = Int(number) } else { depthHeight = Int(number) }
        case ("intrinsics", "fx"), ("intrinsics", "fy"), ("intrinsics", "cx"), ("intrinsics", "cy"):
            // The ranges of the config's depth_fx ... keys: a zero focal length would divide by zero.
            let focal = name == "fx" || name == "fy"
            guard let number = Self.decimal(value), focal ? number >= 1 && number <= 100_000 : number >= 0 && number <= 16384 else {
                return fail(key, value, focal ? "a focal length of 1 to 100000 pixels" : "a pixel position, 0 to 16384")
            }
            switch name {
            case "fx": fx = Float(number)
            case "fy": fy = Float(number)
            case "cx": cx = Float(number)
            default: cy = Float(number)
            }
        case ("recording", "frame_rate"), ("recording", "fps"):
            guard let number = Self.decimal(value), number >= 1, number <= 1000 else {
                return fail(key, value, "frames per second, 1 to 1000")
            }
            settings.frameRate = Int(number.rounded())
        default:
            settings.warnings.append("unknown key \(key) ignored")
        }
        return true
    }

    private func fail(_ key: String, _ value: String, _ allowed: String) -> Bool {
        failure = "\(key) = \"\(value)\" is not valid; expected \(allowed)"
        return false
    }

    /// Plain decimal numbers ("-12", "0.2", "535.40"). Written out because the Embedded
    /// standard library's Double(String) needs a strtod shim the firmware does not link.
    static func decimal(_ text: String) -> Double? {
        var value = 0.0, scale = 1.0, sign = 1.0
        var digits = 0, seenPoint = false, index = 0
        for byte in text.utf8 {
            defer { index += 1 }
            if index == 0 && (byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")) {
                if byte == UInt8(ascii: "-") { sign = -1 }
                continue
            }
            if byte == UInt8(ascii: ".") && !seenPoint { seenPoint = true; continue }
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
            digits += 1
            if seenPoint {
                scale /= 10
                value += Double(byte - UInt8(ascii: "0")) * scale
            } else {
                value = value * 10 + Double(byte - UInt8(ascii: "0"))
            }
        }
        return digits > 0 ? sign * value : nil
    }
}
