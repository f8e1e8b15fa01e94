@_spi(Testing) import Frames
import ImageCodec
import TestSupport
import Testing

/// A phone photo taken upright is stored sideways with an EXIF orientation tag; backdrops must
/// come out upright. The stored picture has four solid quadrants, red, green / blue, white, and
/// each orientation must put them where a photo viewer shows them.
@Suite struct ExifOrientationTests {
    enum Colour: CaseIterable { case red, green, blue, white }

    static func rgb(_ colour: Colour) -> (UInt8, UInt8, UInt8) {
        switch colour {
        case .red: return (255, 0, 0)
        case .green: return (0, 255, 0)
        case .blue: return (0, 0, 255)
        case .white: return (255, 255, 255)
        }
    }

    /// 64x32 stored: red top-left, green top-right, blue bottom-left, white bottom-right.
    static func quadrantJPEG() throws -> [UInt8] {
        let size = FrameSize(width: 64, height: 32)
        let image = PixelBuffer(format: .rgb24, size: size)
        for y in 0..<size.height {
            for x in 0..<size.width {
                let colour: Colour = y < 16 ? (x < 32 ? .red : .green) : (x < 32 ? .blue : .white)
                let (r, g, b) = rgb(colour)
                let pixel = image.row(y).assumingMemoryBound(to: UInt8.self) + x * 3
                pixel[0] = r; pixel[1] = g; pixel[2] = b
            }
        }
        return try JPEGEncoder.encode(image.view, quality: 95)
    }

    /// An APP1 "Exif" segment holding a TIFF header and one IFD entry, placed right after SOI.
    static func withExif(_ jpeg: [UInt8], orientation: UInt16, bigEndian: Bool = false,
                         entryType: UInt16 = 3, directoryOffset: UInt32 = 8) -> [UInt8] {
        func u16(_ v: UInt16) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func u32(_ v: UInt32) -> [UInt8] {
            bigEndian ? u16(UInt16(v >> 16)) + u16(UInt16(v & 0xFFFF)) : u16(UInt16(v & 0xFFFF)) + u16(UInt16(v >> 16))
        }
        var tiff: [UInt8] = bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]
        tiff += u16(42) + u32(directoryOffset)
        tiff += u16(1)  // one entry
        tiff += u16(0x0112) + u16(entryType) + u32(1) + u16(orientation) + u16(0)
        tiff += u32(0)  // no next IFD
        let payload: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0] + tiff
        let length = payload.count + 2
        let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        return Array(jpeg[0..<2]) + segment + Array(jpeg[2...])
    }

    /// Decodes the file and reports its size and the colour nearest to the centre of each
    /// displayed quadrant (top-left, top-right, bottom-left, bottom-right).
    static func decode(_ bytes: [UInt8], covering: FrameSize? = nil) throws -> (FrameSize, [Colour]) {
        let directory = TemporaryDirectory("exif")
        let path = directory.write("photo.jpg", bytes)
        let decoder = ImageDecoder()
        let image = try covering.map { size in try decoder.decode(path: path, covering: size) } ?? decoder.decode(path: path)
        return (image.size, quadrants(image))
    }

    static func quadrants(_ image: borrowing PixelBuffer) -> [Colour] {
        let w = image.size.width
        let h = image.size.height
        var found: [Colour] = []
        for (x, y) in [(w / 4, h / 4), (3 * w / 4, h / 4), (w / 4, 3 * h / 4), (3 * w / 4, 3 * h / 4)] {
            let pixel = image.row(y).assumingMemoryBound(to: UInt8.self) + x * 3
            var nearest = Colour.red
            for colour in Colour.allCases where distance(pixel, rgb(colour)) < distance(pixel, rgb(nearest)) {
                nearest = colour
            }
            found.append(nearest)
        }
        return found
    }

    static func distance(_ pixel: UnsafeMutablePointer<UInt8>, _ colour: (UInt8, UInt8, UInt8)) -> Int {
        abs(Int(pixel[0]) - Int(colour.0)) + abs(Int(pixel[1]) - Int(colour.1)) + abs(Int(pixel[2]) - Int(colour.2))
    }

    /// Displayed quadrants (top-left, top-right, bottom-left, bottom-right) per EXIF value, as
    /// the EXIF specification's orientation table draws them.
    static let expected: [UInt16: [Colour]] = [
        1: [.red, .green, .blue, .white],
        2: [.green, .red, .white, .blue],
        3: [.white, .blue, .green, .red],
        4: [.blue, .white, .red, .green],
        5: [.red, .blue, .green, .white],
        6: [.blue, .red, .white, .green],
        7: [.white, .green, .blue, .red],
        8: [.green, .white, .red, .blue],
    ]

    @Test(arguments: 1...8) func everyOrientationComesOutUpright(value: Int) throws {
        let jpeg = Self.withExif(try Self.quadrantJPEG(), orientation: UInt16(value))
        let (size, quadrants) = try Self.decode(jpeg)
        let swapped = value >= 5
        #expect(size == (swapped ? FrameSize(width: 32, height: 64) : FrameSize(width: 64, height: 32)))
        #expect(quadrants == Self.expected[UInt16(value)]!)
        let header = try jpeg.withUnsafeBytes { raw in try ImageDecoder().header(of: raw, path: "test.jpg") }
        #expect(header.size == size)
        #expect(header.orientation.rawValue == UInt16(value))
    }

    @Test func bigEndianTagsAreReadToo() throws {
        let (size, quadrants) = try Self.decode(Self.withExif(try Self.quadrantJPEG(), orientation: 6, bigEndian: true))
        #expect(size == FrameSize(width: 32, height: 64))
        #expect(quadrants == Self.expected[6]!)
    }

    @Test func aFileWithoutExifIsAsStored() throws {
        let (size, quadrants) = try Self.decode(try Self.quadrantJPEG())
        #expect(size == FrameSize(width: 64, height: 32))
        #expect(quadrants == Self.expected[1]!)
    }

    /// A broken tag must not stop the picture: it shows as stored.
    @Test func unreadableTagsShowTheImageAsStored() throws {
        let base = try Self.quadrantJPEG()
        for broken in [Self.withExif(base, orientation: 9),
                       Self.withExif(base, orientation: 6, entryType: 4),
                       Self.withExif(base, orientation: 6, directoryOffset: 4000)] {
            let (size, quadrants) = try Self.decode(broken)
            #expect(size == FrameSize(width: 64, height: 32))
            #expect(quadrants == Self.expected[1]!)
        }
    }

    /// Backdrops decode at a reduced scale that still covers the screen: the covering size is
    /// judged upright, so a portrait photo stored sideways is scaled for its displayed shape.
    @Test func scaledDecodeCoversTheDisplayedSize() throws {
        let jpeg = Self.withExif(try Self.quadrantJPEG(), orientation: 6)
        let (size, quadrants) = try Self.decode(jpeg, covering: FrameSize(width: 16, height: 32))
        #expect(size == FrameSize(width: 16, height: 32))
        #expect(quadrants == Self.expected[6]!)
    }
}
