import Frames
@testable import Capture

/// Builds D4xx hardware-monitor replies byte by byte from the documented layout (see
/// realsense-facts: table headers, table 25 and 32 offsets), so the parser is tested against the
/// layout, not against itself. Values are chosen per test.
struct RealSenseReplyBuilder {
    /// A table: 16-byte header then `body`, the header's size and CRC filled in by `bytes`.
    struct Table {
        var type: UInt16
        var version: UInt16 = 0x0203
        var body: [UInt8]

        init(type: UInt16, totalBytes: Int) {
            self.type = type
            body = [UInt8](repeating: 0, count: totalBytes - 16)
        }

        /// Offsets are the documented ones, from the table's start (header included).
        mutating func put(_ value: Float, at offset: Int) { put32(value.bitPattern, at: offset) }

        mutating func put(_ values: [Float], at offset: Int) {
            for (index, value) in values.enumerated() { put(value, at: offset + 4 * index) }
        }

        mutating func put32(_ value: UInt32, at offset: Int) {
            for index in 0..<4 { body[offset - 16 + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(index))) }
        }

        mutating func put16(_ value: UInt16, at offset: Int) {
            body[offset - 16] = UInt8(value & 0xFF)
            body[offset - 15] = UInt8(value >> 8)
        }

        var crc: UInt32 { TableChecksum.crc32(body[...]) }

        func bytes(crc override: UInt32? = nil) -> [UInt8] {
            var header = [UInt8(version >> 8), UInt8(version & 0xFF), UInt8(type & 0xFF), UInt8(type >> 8)]
            header += le32(UInt32(body.count)) + le32(0) + le32(override ?? crc)
            return header + body
        }
    }

    /// A 1024-byte reply: the 4-byte echo, the payload, zero padding, its length in the last four.
    static func reply(echo: UInt32, payload: [UInt8], statedLength: UInt32? = nil) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 1024)
        buffer.replaceSubrange(0..<4, with: le32(echo))
        buffer.replaceSubrange(4..<(4 + payload.count), with: payload)
        buffer.replaceSubrange(1020..<1024, with: le32(statedLength ?? UInt32(payload.count)))
        return buffer
    }

    static func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * UInt32($0))) } }

    /// Table 25 with the baseline and the given rectified entries by slot index.
    static func depthTable(baselineMM: Float = 50.1, entries: [Int: [Float]]) -> Table {
        var table = Table(type: 25, totalBytes: 576)
        table.put([383.1, 383.1, 318.9, 239.2, 0, 0, 0, 0, 1], at: 16)   // left intrinsics (unused)
        table.put(baselineMM, at: 160)
        for (slot, values) in entries { table.put(values, at: 256 + 16 * slot) }
        return table
    }

    /// Table 32: normalised intrinsic (by columns as stored), calibration size, rectified rotation
    /// (by columns) and translation.
    static func colorTable(normalised: [Float], calibration: FrameSize = FrameSize(width: 1920, height: 1080),
                           rotationColumns: [Float] = [1, 0, 0, 0, 1, 0, 0, 0, 1],
                           translationMM: [Float] = [14.9, 0.1, 0.3]) -> Table {
        var table = Table(type: 32, totalBytes: 256)
        table.put(normalised, at: 16)
        table.put([0.12, -0.25, 0.001, 0.0005, 0.1], at: 52)
        table.put16(UInt16(calibration.width), at: 144)
        table.put16(UInt16(calibration.height), at: 146)
        table.put(rotationColumns, at: 184)
        table.put(translationMM, at: 220)
        return table
    }

    /// A D435-like pair: 848x480 and 640x480 depth entries, colour normalised for 16:9.
    static let depth848: [Float] = [421.5, 421.5, 424.2, 238.9]
    static let depth640: [Float] = [383.2, 383.2, 319.7, 238.6]
    static let d435Normalised: [Float] = [0.9584, 0, 0.0101, 0, 1.7038, -0.0057, 0, 0, 1]

    static func d435Replies() -> RealSenseReplies {
        let depth = depthTable(entries: [3: depth848, 2: depth640, 0: [1264.5, 1264.5, 958.6, 537.6]])
        let colour = colorTable(normalised: d435Normalised)
        return RealSenseReplies(depthTable: reply(echo: 0x15, payload: depth.bytes()),
                                colorTable: reply(echo: 0x15, payload: colour.bytes()),
                                depthUnits: reply(echo: 0x2C, payload: le32(1000) + [UInt8](repeating: 0, count: 16)))
    }
}
