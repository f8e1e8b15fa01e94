/// Little-endian reads at offsets of a reply whose length was checked first; the reads themselves
/// also stop at the end, so a layout mistake cannot read past the buffer.
struct CalibrationBytes {
    let bytes: ArraySlice<UInt8>

    init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }

    var count: Int { bytes.count }

    func u8(_ offset: Int) -> UInt8 {
        let index = bytes.startIndex + offset
        return index < bytes.endIndex ? bytes[index] : 0
    }

    func u16(_ offset: Int) -> UInt16 { UInt16(u8(offset)) | UInt16(u8(offset + 1)) << 8 }

    func u32(_ offset: Int) -> UInt32 {
        UInt32(u8(offset)) | UInt32(u8(offset + 1)) << 8 | UInt32(u8(offset + 2)) << 16 | UInt32(u8(offset + 3)) << 24
    }

    func float(_ offset: Int) -> Float { Float(bitPattern: u32(offset)) }

    func floats(_ offset: Int, count: Int) -> [Float] { (0..<count).map { float(offset + 4 * $0) } }

    func slice(from offset: Int, count: Int) -> ArraySlice<UInt8> {
        let start = bytes.startIndex + offset
        return bytes[start..<(start + count)]
    }
}
