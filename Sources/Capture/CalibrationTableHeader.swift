/// The 16-byte header every D4xx calibration table starts with (packed): u16 version (big-endian),
/// u16 table type, u32 size of the body after the header, u32 param, u32 CRC-32 of the body.
/// `read` checks the body is there, at least `minimumBody` long, and matches its CRC.
struct CalibrationTableHeader {
    static let size = 16
    var version: UInt16
    var type: UInt16
    var bodySize: Int
    var crc: UInt32

    static func read(_ payload: ArraySlice<UInt8>, table: String, minimumBody: Int) throws(CalibrationError) -> CalibrationTableHeader {
        let bytes = CalibrationBytes(payload)
        guard bytes.count >= size else {
            throw .short(what: "\(table) table header", count: bytes.count, needed: size)
        }
        let version = UInt16(bytes.u8(0)) << 8 | UInt16(bytes.u8(1))
        let stated = bytes.u32(4)
        let header = CalibrationTableHeader(version: version, type: bytes.u16(2), bodySize: Int(stated), crc: bytes.u32(12))
        guard stated >= UInt32(minimumBody) else {
            throw .header(table: table, reason: "header says \(stated) bytes after it, this table has \(minimumBody) "
                          + "(type \(header.type), version \(version >> 8).\(version & 0xFF))")
        }
        guard bytes.count - size >= header.bodySize else {
            throw .short(what: "\(table) table (header says \(stated) bytes after it)", count: bytes.count,
                         needed: size + header.bodySize)
        }
        let computed = TableChecksum.crc32(bytes.slice(from: size, count: header.bodySize))
        guard computed == header.crc else { throw .checksum(table: table, stored: header.crc, computed: computed) }
        return header
    }
}
