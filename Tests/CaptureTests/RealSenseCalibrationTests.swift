import Frames
import Testing
@testable import Capture

@Suite struct RealSenseCalibrationTests {
    typealias Build = RealSenseReplyBuilder

    @Test func checksumIsTheIEEECRC32() {
        // The standard check value of CRC-32 over "123456789".
        #expect(TableChecksum.crc32(Array("123456789".utf8)[...]) == 0xCBF4_3926)
        #expect(TableChecksum.crc32([][...]) == 0)
    }

    @Test func commandPacketFollowsTheDocumentedLayout() {
        let packet = HardwareMonitor.command(.getIntCal, 25)
        #expect(packet.count == 1024)
        #expect(Array(packet[0..<12]) == [0x14, 0x00, 0xAB, 0xCD, 0x15, 0, 0, 0, 25, 0, 0, 0])
        #expect(packet[12...].allSatisfy { $0 == 0 })
        let advanced = HardwareMonitor.command(.getAdv, 9)
        #expect(Array(advanced[4..<12]) == [0x2C, 0, 0, 0, 9, 0, 0, 0])
    }

    @Test func depthIntrinsicsForTwoResolutions() throws {
        let table = try Build.d435Replies().parsedDepthTable()
        #expect(table.baselineMM == 50.1)
        #expect(try table.intrinsics(for: FrameSize(width: 848, height: 480))
                == PinholeIntrinsics(fx: 421.5, fy: 421.5, cx: 424.2, cy: 238.9))
        #expect(try table.intrinsics(for: FrameSize(width: 640, height: 480))
                == PinholeIntrinsics(fx: 383.2, fy: 383.2, cx: 319.7, cy: 238.6))
        // A size the table does not list: the 1920x1080 entry scaled (pixel centres kept).
        let scale: Float = 1024.0 / 1920
        let scaled = try table.intrinsics(for: FrameSize(width: 1024, height: 576))
        #expect(abs(scaled.fx - 1264.5 * scale) < 1e-3 && abs(scaled.cx - ((958.6 + 0.5) * scale - 0.5)) < 1e-3)
        // A size the table lists but left empty is refused, not scaled from another entry.
        #expect(throws: CalibrationError.absurd(table: "depth (25)", what: "fx at 960x540", value: "0.000")) {
            try table.intrinsics(for: FrameSize(width: 960, height: 540))
        }
    }

    @Test func colourIntrinsicsScaleWithTheChosenSize() throws {
        let table = try Build.d435Replies().parsedColorTable()
        let m = Build.d435Normalised
        let wide = try table.intrinsics(for: FrameSize(width: 1280, height: 720))
        #expect(abs(wide.fx - m[0] * 640) < 1e-3 && abs(wide.fy - m[4] * 360) < 1e-3)
        #expect(abs(wide.cx - (1 + m[2]) * 640) < 1e-3 && abs(wide.cy - (1 + m[5]) * 360) < 1e-3)
        // 4:3 from a 16:9 calibration: the vertical view is kept, so fy in pixels per unit of
        // height is unchanged and fx equals fy as on the wide image (square pixels).
        let narrow = try table.intrinsics(for: FrameSize(width: 640, height: 480))
        #expect(abs(narrow.fy - m[4] * 240) < 1e-3)
        #expect(abs(narrow.fx / narrow.fy - wide.fx / wide.fy) < 1e-4)
        #expect(abs(narrow.cx - (1 + m[2] * (16.0 / 9 * 480 / 640)) * 320) < 1e-3)
    }

    @Test func extrinsicsTakeDepthPointsIntoTheColourCamera() throws {
        // The table's rotation (colour axes to depth axes), 0.01 rad about y, and translation: a
        // colour-frame point P is at R·P − t_rect in the depth frame (librealsense's × −0.001 m).
        let angle: Float = 0.01
        let c: Float = 1 - angle * angle / 2, s: Float = angle - angle * angle * angle / 6
        let columns: [Float] = [c, 0, -s, 0, 1, 0, s, 0, c]
        let tRect: SIMD3<Float> = SIMD3(14.9, 1.0, 0.5)
        let colour = Build.colorTable(normalised: Build.d435Normalised, rotationColumns: columns,
                                      translationMM: [tRect.x, tRect.y, tRect.z])
        let replies = RealSenseReplies(depthTable: Build.d435Replies().depthTable,
                                       colorTable: Build.reply(echo: 0x15, payload: colour.bytes()))
        let calibration = try replies.calibration(depthSize: FrameSize(width: 848, height: 480),
                                                  colorSize: FrameSize(width: 1280, height: 720), source: "test")
        let colourPoint = SIMD3<Float>(120, -340, 2100)
        let toDepth = CameraRotation(row0: SIMD3(c, 0, s), row1: SIMD3(0, 1, 0), row2: SIMD3(-s, 0, c))
        let depthPoint = toDepth.rotate(colourPoint) - tRect
        let back = calibration.rotation.rotate(depthPoint) - calibration.translationMM
        #expect(abs(back.x - colourPoint.x) < 0.01 && abs(back.y - colourPoint.y) < 0.01 && abs(back.z - colourPoint.z) < 0.01)
        #expect(calibration.depthUnitMM == nil)
    }

    @Test func depthUnitsFromGetAdv() throws {
        #expect(try Build.d435Replies().depthUnitMM() == 1.0)
        let d405 = Build.reply(echo: 0x2C, payload: Build.le32(100) + [UInt8](repeating: 0, count: 16))
        #expect(try RealSenseDepthUnits.millimetres(payload: HardwareMonitor.payload(of: d405, for: .getAdv)) == 0.1)
        let zero = Build.reply(echo: 0x2C, payload: [UInt8](repeating: 0, count: 20))
        #expect(throws: CalibrationError.absurd(table: "depth table control", what: "the depth unit", value: "0 µm")) {
            try RealSenseDepthUnits.millimetres(payload: HardwareMonitor.payload(of: zero, for: .getAdv))
        }
        let short = Build.reply(echo: 0x2C, payload: Build.le32(1000))
        #expect(throws: CalibrationError.short(what: "GET_ADV depth table control", count: 4, needed: 20)) {
            try RealSenseDepthUnits.millimetres(payload: HardwareMonitor.payload(of: short, for: .getAdv))
        }
    }

    @Test func badChecksumIsRefusedWithBothValues() throws {
        var table = Build.depthTable(entries: [3: Build.depth848])
        let good = table.crc
        table.body[300] ^= 0x40
        let reply = Build.reply(echo: 0x15, payload: table.bytes(crc: good))
        let error = #expect(throws: CalibrationError.self) {
            try RealSenseDepthTable(payload: HardwareMonitor.payload(of: reply, for: .getIntCal))
        }
        guard case .checksum(let name, let stored, let computed) = error else { Issue.record("\(String(describing: error))"); return }
        #expect(name == "depth (25)" && stored == good && computed == table.crc && computed != good)
        #expect(error?.message.contains(CalibrationError.hex(good)) == true)
    }

    @Test func shortRepliesAreRefused() {
        let full = Build.d435Replies().depthTable
        #expect(throws: CalibrationError.short(what: "GETINTCAL reply", count: 512, needed: 1024)) {
            try HardwareMonitor.payload(of: Array(full[0..<512]), for: .getIntCal)
        }
        // The reply says it carries only 100 bytes: the table's header promises 560 after it.
        var truncated = full
        truncated.replaceSubrange(1020..<1024, with: Build.le32(100))
        #expect(throws: CalibrationError.short(what: "depth (25) table (header says 560 bytes after it)", count: 100, needed: 576)) {
            try RealSenseDepthTable(payload: HardwareMonitor.payload(of: truncated, for: .getIntCal))
        }
        truncated.replaceSubrange(1020..<1024, with: Build.le32(10))
        #expect(throws: CalibrationError.short(what: "depth (25) table header", count: 10, needed: 16)) {
            try RealSenseDepthTable(payload: HardwareMonitor.payload(of: truncated, for: .getIntCal))
        }
        truncated.replaceSubrange(1020..<1024, with: Build.le32(5000))
        #expect(throws: CalibrationError.replyLength(command: "GETINTCAL", stated: 5000)) {
            try HardwareMonitor.payload(of: truncated, for: .getIntCal)
        }
    }

    @Test func aColourTableWhereADepthTableBelongsIsRefusedByItsSize() {
        let colour = Build.d435Replies().colorTable
        #expect(throws: CalibrationError.self) { try RealSenseDepthTable(payload: HardwareMonitor.payload(of: colour, for: .getIntCal)) }
    }

    @Test func errorOpcodeIsRefusedWithTheCode() {
        var reply = Build.d435Replies().colorTable
        reply.replaceSubrange(0..<4, with: Build.le32(UInt32(bitPattern: -7)))
        let error = #expect(throws: CalibrationError.refused(command: "GETINTCAL", code: -7)) {
            try HardwareMonitor.payload(of: reply, for: .getIntCal)
        }
        #expect(error?.message == "camera refused GETINTCAL: it answered with error code -7 instead of the opcode")
    }

    @Test func zeroFocalLengthIsRefusedAtTheSizeThatHasIt() throws {
        let table = Build.depthTable(entries: [3: [0, 421.5, 424.2, 238.9], 2: Build.depth640])
        let parsed = try RealSenseDepthTable(payload: HardwareMonitor.payload(of: Build.reply(echo: 0x15, payload: table.bytes()), for: .getIntCal))
        #expect(throws: CalibrationError.absurd(table: "depth (25)", what: "fx at 848x480", value: "0.000")) {
            try parsed.intrinsics(for: FrameSize(width: 848, height: 480))
        }
        #expect(try parsed.intrinsics(for: FrameSize(width: 640, height: 480)).fx == 383.2)
    }

    @Test func notANumberIsRefusedWherever() throws {
        var normalised = Build.d435Normalised
        normalised[0] = .nan
        let colour = Build.colorTable(normalised: normalised)
        #expect(throws: CalibrationError.absurd(table: "colour (32)", what: "normalised fx", value: "nan")) {
            try RealSenseColorTable(payload: HardwareMonitor.payload(of: Build.reply(echo: 0x15, payload: colour.bytes()), for: .getIntCal))
        }
        let depth = Build.depthTable(entries: [3: [421.5, .nan, 424.2, 238.9]])
        let parsed = try RealSenseDepthTable(payload: HardwareMonitor.payload(of: Build.reply(echo: 0x15, payload: depth.bytes()), for: .getIntCal))
        #expect(throws: CalibrationError.absurd(table: "depth (25)", what: "fy at 848x480", value: "nan")) {
            try parsed.intrinsics(for: FrameSize(width: 848, height: 480))
        }
        let rotation = Build.colorTable(normalised: Build.d435Normalised, rotationColumns: [1, 0, 0, 0, .nan, 0, 0, 0, 1])
        let error = #expect(throws: CalibrationError.self) {
            try RealSenseColorTable(payload: HardwareMonitor.payload(of: Build.reply(echo: 0x15, payload: rotation.bytes()), for: .getIntCal))
        }
        #expect(error?.message.contains("nan") == true)
        let far = Build.colorTable(normalised: Build.d435Normalised, translationMM: [.infinity, 0, 0])
        #expect(throws: CalibrationError.absurd(table: "colour (32)", what: "the translation to the depth camera",
                                                value: "(inf, 0.000, 0.000) mm")) {
            try RealSenseColorTable(payload: HardwareMonitor.payload(of: Build.reply(echo: 0x15, payload: far.bytes()), for: .getIntCal))
        }
        #expect(throws: CalibrationError.self) {
            try RealSenseDepthTable(payload: HardwareMonitor.payload(
                of: Build.reply(echo: 0x15, payload: Build.depthTable(baselineMM: .nan, entries: [:]).bytes()), for: .getIntCal))
        }
    }

    @Test func numbersPrintWithoutTrapping() {
        #expect(CalibrationText.decimal(.nan) == "nan")
        #expect(CalibrationText.decimal(-.infinity) == "-inf")
        #expect(CalibrationText.decimal(3e30) == "huge")
        #expect(CalibrationText.decimal(-14.9004, places: 2) == "-14.90")
        #expect(CalibrationText.decimal(-0.0001) == "0.000")
    }
}
