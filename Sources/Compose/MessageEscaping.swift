/// Turns any bytes into what the message layer can draw: printable ASCII stays, "…" (U+2026)
/// becomes "...", every other byte (control characters, the rest of UTF-8, invalid bytes) is
/// written as \xNN, so a hostile or garbled file name shows as what it is instead of vanishing
/// or moving the text. Too long a text is cut at a whole piece and ends in "...".
enum MessageEscaping {
    /// Writes the escaped `source` into `destination` (at most `capacity` bytes, capacity >= 3)
    /// and returns how many bytes were written. Never allocates.
    static func escape(_ source: UnsafeBufferPointer<UInt8>, into destination: UnsafeMutableRawPointer, capacity: Int) -> Int {
        precondition(capacity >= 3)
        var total = 0
        forEachPiece(source) { _, length in total += length }
        let limit = total <= capacity ? capacity : capacity - 3
        var count = 0
        var full = false
        forEachPiece(source) { piece, length in
            guard !full else { return }
            guard count + length <= limit else { full = true; return }
            for offset in 0..<length { destination.storeBytes(of: piece[offset], toByteOffset: count + offset, as: UInt8.self) }
            count += length
        }
        if total > capacity {
            for offset in 0..<3 { destination.storeBytes(of: UInt8(ascii: "."), toByteOffset: count + offset, as: UInt8.self) }
            count += 3
        }
        return count
    }

    /// Calls `body` with each output piece (up to four bytes, in a tuple-backed buffer) and its length.
    private static func forEachPiece(_ source: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>, Int) -> Void) {
        var piece: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
        var index = 0
        while index < source.count {
            let byte = source[index]
            var length = 1
            if byte >= 0x20 && byte <= 0x7E {
                piece.0 = byte
                index += 1
            } else if byte == 0xE2 && index + 2 < source.count && source[index + 1] == 0x80 && source[index + 2] == 0xA6 {
                piece = (0x2E, 0x2E, 0x2E, 0)
                length = 3
                index += 3
            } else {
                piece = (UInt8(ascii: "\\"), UInt8(ascii: "x"), hexDigit(byte >> 4), hexDigit(byte & 0xF))
                length = 4
                index += 1
            }
            withUnsafeBytes(of: &piece) { raw in body(raw.bindMemory(to: UInt8.self), length) }
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10
    }
}
