import Frames

/// How a JPEG's stored pixels must be turned to look upright: EXIF tag 0x0112. Phones store
/// portrait photos sideways and set this tag, so a backdrop copied from a phone would otherwise
/// show on its side. The raw values are the tag's; names say what the display does.
public enum ExifOrientation: UInt16, Sendable {
    case upright = 1
    case mirrored = 2
    case rotated180 = 3
    case flipped = 4
    case transposed = 5
    case rotatedClockwise = 6
    case transversed = 7
    case rotatedCounterClockwise = 8

    /// The displayed image is the stored one with width and height exchanged.
    public var swapsAxes: Bool { rawValue >= 5 }

    public func displayedSize(ofStored size: FrameSize) -> FrameSize {
        swapsAxes ? FrameSize(width: size.height, height: size.width) : size
    }

    /// The tag from a JPEG's first EXIF segment; `.upright` when there is none or it cannot be
    /// read (as image viewers do: a broken tag must not stop the picture from showing).
    ///
    /// Written by hand rather than with libexif: this is one SHORT in the first IFD, and the
    /// library would add a package to the board for it. Every offset is checked against the
    /// segment, so a hostile file can only make this return `.upright`.
    public static func of(jpeg bytes: UnsafeRawBufferPointer) -> ExifOrientation {
        var index = 2  // after SOI
        while index + 4 <= bytes.count {
            guard bytes[index] == 0xFF else { return .upright }
            let marker = bytes[index + 1]
            if marker == 0xFF { index += 1; continue }  // fill byte
            if marker == 0xD9 || marker == 0xDA { return .upright }  // EOI, or entropy-coded data from here on
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { index += 2; continue }  // no length field
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            guard length >= 2, index + 2 + length <= bytes.count else { return .upright }
            let payload = index + 4
            let payloadCount = length - 2
            if marker == 0xE1, payloadCount >= 6, bytes[payload] == 0x45, bytes[payload + 1] == 0x78,
               bytes[payload + 2] == 0x69, bytes[payload + 3] == 0x66, bytes[payload + 4] == 0,
               bytes[payload + 5] == 0 {  // "Exif\0\0"
                return ofTIFF(UnsafeRawBufferPointer(rebasing: bytes[(payload + 6)..<(payload + payloadCount)]))
            }
            index += 2 + length
        }
        return .upright
    }

    private static func ofTIFF(_ tiff: UnsafeRawBufferPointer) -> ExifOrientation {
        guard tiff.count >= 8 else { return .upright }
        let littleEndian: Bool
        if tiff[0] == 0x49, tiff[1] == 0x49 { littleEndian = true }  // "II"
        else if tiff[0] == 0x4D, tiff[1] == 0x4D { littleEndian = false }  // "MM"
        else { return .upright }
        func u16(_ at: Int) -> Int {
            littleEndian ? Int(tiff[at]) | Int(tiff[at + 1]) << 8 : Int(tiff[at]) << 8 | Int(tiff[at + 1])
        }
        func u32(_ at: Int) -> Int { littleEndian ? u16(at) | u16(at + 2) << 16 : u16(at) << 16 | u16(at + 2) }
        guard u16(2) == 42 else { return .upright }
        let directory = u32(4)
        guard directory >= 8, directory + 2 <= tiff.count else { return .upright }
        let entries = u16(directory)
        for entry in 0..<entries {
            let at = directory + 2 + entry * 12
            guard at + 12 <= tiff.count else { return .upright }
            // Orientation: type SHORT (3), count 1, the value in the entry's first two value bytes.
            if u16(at) == 0x0112 {
                guard u16(at + 2) == 3, u32(at + 4) >= 1 else { return .upright }
                return ExifOrientation(rawValue: UInt16(u16(at + 8))) ?? .upright
            }
        }
        return .upright
    }

    /// Writes `stored` turned upright into `displayed`, whose size must be
    /// `displayedSize(ofStored: stored.size)`. Both RGB24. Backdrops are loaded once, off the
    /// frame path, so a plain per-pixel copy is fast enough.
    public func turn(_ stored: ImageView, into displayed: ImageView) {
        precondition(stored.format == .rgb24 && displayed.format == .rgb24, "orientation needs RGB24")
        precondition(displayed.size == displayedSize(ofStored: stored.size), "displayed size does not match")
        let width = stored.size.width
        let height = stored.size.height
        for y in 0..<displayed.size.height {
            let target = displayed.row(y).assumingMemoryBound(to: UInt8.self)
            for x in 0..<displayed.size.width {
                let sourceX: Int
                let sourceY: Int
                switch self {
                case .upright: (sourceX, sourceY) = (x, y)
                case .mirrored: (sourceX, sourceY) = (width - 1 - x, y)
                case .rotated180: (sourceX, sourceY) = (width - 1 - x, height - 1 - y)
                case .flipped: (sourceX, sourceY) = (x, height - 1 - y)
                case .transposed: (sourceX, sourceY) = (y, x)
                case .rotatedClockwise: (sourceX, sourceY) = (y, height - 1 - x)
                case .transversed: (sourceX, sourceY) = (width - 1 - y, height - 1 - x)
                case .rotatedCounterClockwise: (sourceX, sourceY) = (width - 1 - y, x)
                }
                let source = stored.row(sourceY).assumingMemoryBound(to: UInt8.self) + sourceX * 3
                target[x * 3] = source[0]
                target[x * 3 + 1] = source[1]
                target[x * 3 + 2] = source[2]
            }
        }
    }
}
