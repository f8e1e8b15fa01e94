import Runtime
import Capture
import Frames

/// A `CameraCalibration` as `backdrop cameras` prints it: lines for people, an object for --json.
enum CalibrationReport {
    static func d(_ value: Float, _ places: Int = 3) -> String { CalibrationText.decimal(value, places: places) }

    static func pinhole(_ k: PinholeIntrinsics) -> String {
        "fx \(d(k.fx)) fy \(d(k.fy)) cx \(d(k.cx)) cy \(d(k.cy))"
    }

    static func lines(_ c: CameraCalibration, indent: String) -> [String] {
        var lines = [
            "\(indent)depth  \(c.depthSize.description): \(pinhole(c.depth))",
            "\(indent)colour \(c.colorSize.description): \(pinhole(c.color))",
            "\(indent)rotation depth->colour (rows): \(CalibrationText.vector(c.rotation.row0, places: 6)) "
                + "\(CalibrationText.vector(c.rotation.row1, places: 6)) \(CalibrationText.vector(c.rotation.row2, places: 6))",
            "\(indent)translation \(CalibrationText.vector(c.translationMM)) mm (colour camera's centre, depth camera's frame)",
        ]
        if let unit = c.depthUnitMM { lines.append("\(indent)depth unit \(d(unit, 4)) mm") }
        return lines
    }

    static func json(_ c: CameraCalibration) -> String {
        func k(_ p: PinholeIntrinsics) -> String {
            "{\"fx\": \(d(p.fx, 4)), \"fy\": \(d(p.fy, 4)), \"cx\": \(d(p.cx, 4)), \"cy\": \(d(p.cy, 4))}"
        }
        func v(_ x: SIMD3<Float>, _ places: Int) -> String { "[\(d(x.x, places)), \(d(x.y, places)), \(d(x.z, places))]" }
        var text = "{\"source\": \(quoted(c.source)), \"depth_size\": \"\(c.depthSize.description)\", "
            + "\"color_size\": \"\(c.colorSize.description)\", \"depth\": \(k(c.depth)), \"color\": \(k(c.color)), "
            + "\"rotation\": [\(v(c.rotation.row0, 6)), \(v(c.rotation.row1, 6)), \(v(c.rotation.row2, 6))], "
            + "\"translation_mm\": \(v(c.translationMM, 4))"
        if let unit = c.depthUnitMM { text += ", \"depth_unit_mm\": \(d(unit, 4))" }
        return text + "}"
    }

    /// A JSON string: quotes, backslashes and control characters escaped.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
