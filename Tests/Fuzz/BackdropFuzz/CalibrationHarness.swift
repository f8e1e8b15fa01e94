import Capture
import Frames

/// A D4xx's calibration replies as `backdrop cameras --calibration-from` and the live camera feed
/// them: the input is cut into up to three 1024-byte replies (GETINTCAL depth, GETINTCAL colour,
/// GET_ADV depth units; a short input makes a short reply), each parsed, then the intrinsics and
/// extrinsics derived at the sizes a booth uses. Whatever is accepted must be usable.
enum CalibrationHarness {
    static let sizes = [FrameSize(width: 848, height: 480), FrameSize(width: 1280, height: 720),
                        FrameSize(width: 640, height: 480), FrameSize(width: 1024, height: 600)]

    static func run(_ bytes: UnsafeRawBufferPointer) {
        let all = Array(bytes)
        func reply(_ index: Int) -> [UInt8] {
            let start = min(all.count, index * 1024)
            return Array(all[start..<min(all.count, start + 1024)])
        }
        let replies = RealSenseReplies(depthTable: reply(0), colorTable: reply(1),
                                       depthUnits: all.count > 2048 ? reply(2) : nil)
        do throws(CalibrationError) {
            if let unit = try replies.depthUnitMM() {
                precondition(unit > 0 && unit.isFinite, "accepted a depth unit of \(CalibrationText.decimal(unit))")
            }
        } catch {
            _ = error.message
        }
        for depthSize in sizes {
            for colorSize in sizes {
                do throws(CalibrationError) {
                    let calibration = try replies.calibration(depthSize: depthSize, colorSize: colorSize, source: "fuzz")
                    for pinhole in [calibration.depth, calibration.color] {
                        precondition(pinhole.fx > 0 && pinhole.fy > 0 && pinhole.cx.isFinite && pinhole.cy.isFinite,
                                     "accepted intrinsics a projection cannot use")
                    }
                    let t = calibration.translationMM
                    precondition(t.x.isFinite && t.y.isFinite && t.z.isFinite, "accepted a translation that is not finite")
                    precondition(calibration.rotation.orthonormalityError < 0.02, "accepted a rotation that is not one")
                } catch {
                    _ = error.message
                }
            }
        }
    }

    /// Seeds: a D435-like set of three replies, and the same with the colour table refused.
    static func seeds() -> [(name: String, bytes: [UInt8])] {
        func le(_ value: UInt32, _ count: Int = 4) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * UInt32($0))) } }
        func floats(_ values: [Float]) -> [UInt8] { values.flatMap { le($0.bitPattern) } }
        func table(type: UInt16, total: Int, fields: [(Int, [UInt8])]) -> [UInt8] {
            var body = [UInt8](repeating: 0, count: total - 16)
            for (offset, bytes) in fields { body.replaceSubrange((offset - 16)..<(offset - 16 + bytes.count), with: bytes) }
            return [2, 3] + le(UInt32(type), 2) + le(UInt32(body.count)) + le(0) + le(TableChecksum.crc32(body[...])) + body
        }
        func reply(_ echo: UInt32, _ payload: [UInt8]) -> [UInt8] {
            le(echo) + payload + [UInt8](repeating: 0, count: 1016 - payload.count) + le(UInt32(payload.count))
        }
        let depth = table(type: 25, total: 576, fields: [(160, floats([50.1])), (256, floats([1264.5, 1264.5, 958.6, 537.6])),
                                                          (256 + 32, floats([383.2, 383.2, 319.7, 238.6])),
                                                          (256 + 48, floats([421.5, 421.5, 424.2, 238.9]))])
        let colour = table(type: 32, total: 256, fields: [(16, floats([0.9584, 0, 0.0101, 0, 1.7038, -0.0057, 0, 0, 1])),
                                                           (144, le(1920, 2) + le(1080, 2)),
                                                           (184, floats([1, 0, 0, 0, 1, 0, 0, 0, 1])),
                                                           (220, floats([14.9, 0.1, 0.3]))])
        let units = reply(0x2C, le(1000) + [UInt8](repeating: 0, count: 16))
        return [("d435.bin", reply(0x15, depth) + reply(0x15, colour) + units),
                ("refused.bin", reply(0x15, depth) + reply(0xFFFF_FFF9, colour) + units)]
    }
}
