/// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320, as zlib's crc32) of a calibration table's
/// body. Written here rather than linked from zlib: ten lines on a few hundred bytes read once at
/// start-up do not justify another C library in the firmware.
public enum TableChecksum {
    public static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 {
                crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1
            }
        }
        return ~crc
    }
}
