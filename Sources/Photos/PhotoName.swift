/// Photo file names: `photo-SSSSSSSS-BBBBBBBBBB.jpg` (and `...-colour.png`, `-alpha.png`,
/// `-depth.png` with keep_layers). S is a sequence number, B the CLOCK_MONOTONIC milliseconds
/// since boot at the capture.
///
/// Why this shape: the board has no real-time clock, so wall-clock names would repeat or jump
/// after every reboot, and boot-relative time alone restarts at zero. The sequence number is
/// taken at start-up from the highest one already in the folder (plus one per photo), so names
/// are unique across reboots and, being zero-padded to a fixed width, sort in the order the
/// photos were taken. The boot time only helps tell photos of one session apart by eye. Eight
/// digits last 100 million photos; a folder emptied by hand starts again at 1, which still sorts
/// after nothing.
public enum PhotoName {
    public static let prefix = "photo-"
    public static let sequenceDigits = 8
    public static let bootDigits = 10

    /// What a file of one photo holds.
    public enum Part: Equatable, Sendable {
        case composite
        case colour
        case alpha
        case depth

        var suffix: String {
            switch self {
            case .composite: return ".jpg"
            case .colour: return "-colour.png"
            case .alpha: return "-alpha.png"
            case .depth: return "-depth.png"
            }
        }
    }

    public static func name(sequence: UInt64, bootNanoseconds: UInt64, part: Part = .composite) -> String {
        prefix + padded(sequence, sequenceDigits) + "-" + padded(bootNanoseconds / 1_000_000, bootDigits) + part.suffix
    }

    /// The sequence number of a photo's file name, nil for any other name (temporaries start
    /// with '.', so a write cut short is never counted).
    public static func sequence(of name: String) -> UInt64? {
        let bytes = name.utf8
        guard name.hasPrefix(prefix), bytes.count > prefix.utf8.count + sequenceDigits else { return nil }
        var value: UInt64 = 0
        var digits = 0
        for byte in bytes.dropFirst(prefix.utf8.count) {
            if byte == UInt8(ascii: "-") { break }
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"), digits < 19 else { return nil }
            value = value * 10 + UInt64(byte - UInt8(ascii: "0"))
            digits += 1
        }
        return digits >= sequenceDigits ? value : nil
    }

    /// The highest sequence number among `names`, 0 when there is none.
    public static func highestSequence<Names: Sequence>(in names: Names) -> UInt64 where Names.Element == String {
        var highest: UInt64 = 0
        for name in names { if let value = sequence(of: name) { highest = max(highest, value) } }
        return highest
    }

    private static func padded(_ value: UInt64, _ width: Int) -> String {
        let digits = "\(value)"
        let missing = width - digits.utf8.count
        return missing > 0 ? String(repeating: "0", count: missing) + digits : digits
    }
}
