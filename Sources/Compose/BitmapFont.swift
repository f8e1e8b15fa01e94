/// A 5x7 bitmap font for status messages on the output ("CAMERA DISCONNECTED"). Hand-written
/// because the board image carries no font library or font files, and a few dozen glyphs as
/// integer constants cost less than any loader. Covers A-Z (lower case is drawn as upper case),
/// 0-9, space and . , : ; - _ ! ? ' " / \ ( ) [ ] < > % + = * # & @ (what file names and
/// messages use); anything else is drawn as '?'.
///
/// A glyph is 35 bits: row r (0 = top) in bits 5r...5r+4, with bit 4 of a row the leftmost column.
/// A switch rather than a table, so looking one up never allocates or initialises a global.
public enum BitmapFont {
    public static let glyphWidth = 5
    public static let glyphHeight = 7
    /// Horizontal advance per character in font pixels (one column of spacing).
    public static let advance = 6

    public static func isSet(_ glyph: UInt64, column: Int, row: Int) -> Bool {
        (glyph >> UInt64(row * 5 + (4 - column))) & 1 == 1
    }

    public static func glyph(for byte: UInt8) -> UInt64 {
        let upper = (byte >= 0x61 && byte <= 0x7A) ? byte - 0x20 : byte
        switch upper {
        case 0x20: return 0
        case 0x41: return 0x4631FC62E  // A
        case 0x42: return 0x7A31F463E  // B
        case 0x43: return 0x3A308422E  // C
        case 0x44: return 0x7A318C63E  // D
        case 0x45: return 0x7E10F421F  // E
        case 0x46: return 0x4210F421F  // F
        case 0x47: return 0x3E31BC22E  // G
        case 0x48: return 0x4631FC631  // H
        case 0x49: return 0x38842108E  // I
        case 0x4A: return 0x324210847  // J
        case 0x4B: return 0x4654C5251  // K
        case 0x4C: return 0x7E1084210  // L
        case 0x4D: return 0x4631AD771  // M
        case 0x4E: return 0x4633AE631  // N
        case 0x4F: return 0x3A318C62E  // O
        case 0x50: return 0x4210F463E  // P
        case 0x51: return 0x36558C62E  // Q
        case 0x52: return 0x4654F463E  // R
        case 0x53: return 0x78217420F  // S
        case 0x54: return 0x10842109F  // T
        case 0x55: return 0x3A318C631  // U
        case 0x56: return 0x11518C631  // V
        case 0x57: return 0x2AB5AC631  // W
        case 0x58: return 0x462A22A31  // X
        case 0x59: return 0x108422A31  // Y
        case 0x5A: return 0x7E082083F  // Z
        case 0x30: return 0x3A39ACE2E  // 0
        case 0x31: return 0x388421184  // 1
        case 0x32: return 0x7D041062E  // 2
        case 0x33: return 0x3A211105F  // 3
        case 0x34: return 0x085F928C2  // 4
        case 0x35: return 0x3A210FA1F  // 5
        case 0x36: return 0x3A31F4106  // 6
        case 0x37: return 0x21082083F  // 7
        case 0x38: return 0x3A317462E  // 8
        case 0x39: return 0x30417C62E  // 9
        case 0x2E: return 0x318000000  // .
        case 0x2C: return 0x208C00000  // ,
        case 0x3A: return 0x018C03180  // :
        case 0x2D: return 0x0000F8000  // -
        case 0x21: return 0x100421084  // !
        case 0x3F: return 0x10041062E  // ?
        case 0x27: return 0x000002084  // '
        case 0x2F: return 0x420820821  // /
        case 0x28: return 0x088842082  // (
        case 0x29: return 0x208210888  // )
        case 0x25: return 0x0E6820B38  // %
        case 0x2B: return 0x0084F9080  // +
        case 0x3D: return 0x001F07C00  // =
        case 0x3B: return 0x208C03180  // ;
        case 0x5F: return 0x7C0000000  // _
        case 0x22: return 0x00000014A  // "
        case 0x5C: return 0x042222210  // backslash
        case 0x5B: return 0x39084210E  // [
        case 0x5D: return 0x38421084E  // ]
        case 0x3C: return 0x088882082  // <
        case 0x3E: return 0x208208888  // >
        case 0x2A: return 0x009575480  // *
        case 0x23: return 0x295F57D4A  // #
        case 0x26: return 0x36554524C  // &
        case 0x40: return 0x3E17ADE2E  // @
        default: return 0x10041062E  // drawn as ?
        }
    }
}
