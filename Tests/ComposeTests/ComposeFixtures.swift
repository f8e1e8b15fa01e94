@testable import Compose
@_spi(Testing) import Frames

/// Builders for small camera, alpha and background images with known contents.
enum ComposeFixtures {
    /// A YUYV image where pixel x of row y has luma luma(x, y) and its pair shares chroma(pair, y).
    static func yuyv(_ size: FrameSize, luma: (Int, Int) -> UInt8, chroma: (Int, Int) -> (UInt8, UInt8)) -> PixelBuffer {
        let buffer = PixelBuffer(format: .yuyv, size: size)
        for y in 0..<size.height {
            let row = buffer.row(y).assumingMemoryBound(to: UInt8.self)
            for pair in 0..<size.width / 2 {
                let (cb, cr) = chroma(pair, y)
                row[pair * 4] = luma(pair * 2, y)
                row[pair * 4 + 1] = cb
                row[pair * 4 + 2] = luma(pair * 2 + 1, y)
                row[pair * 4 + 3] = cr
            }
        }
        return buffer
    }

    static func nv12(_ size: FrameSize, luma: (Int, Int) -> UInt8, chroma: (Int, Int) -> (UInt8, UInt8)) -> PixelBuffer {
        let buffer = PixelBuffer(format: .nv12, size: size)
        for y in 0..<size.height {
            let row = buffer.row(y).assumingMemoryBound(to: UInt8.self)
            for x in 0..<size.width { row[x] = luma(x, y) }
        }
        let chromaPlane = buffer.chromaPlane!.assumingMemoryBound(to: UInt8.self)
        for y in 0..<size.height / 2 {
            for pair in 0..<size.width / 2 {
                let (cb, cr) = chroma(pair, y * 2)
                chromaPlane[y * buffer.bytesPerRow + pair * 2] = cb
                chromaPlane[y * buffer.bytesPerRow + pair * 2 + 1] = cr
            }
        }
        return buffer
    }

    static func rgb(_ size: FrameSize, _ colour: (Int, Int) -> (UInt8, UInt8, UInt8)) -> PixelBuffer {
        let buffer = PixelBuffer(format: .rgb24, size: size)
        for y in 0..<size.height {
            let row = buffer.row(y).assumingMemoryBound(to: UInt8.self)
            for x in 0..<size.width {
                let (r, g, b) = colour(x, y)
                row[x * 3] = r
                row[x * 3 + 1] = g
                row[x * 3 + 2] = b
            }
        }
        return buffer
    }

    static func alpha(_ size: FrameSize, _ value: (Int, Int) -> UInt8) -> PixelBuffer {
        let buffer = PixelBuffer(format: .alpha8, size: size)
        for y in 0..<size.height {
            for x in 0..<size.width { buffer.row(y).storeBytes(of: value(x, y), toByteOffset: x, as: UInt8.self) }
        }
        return buffer
    }

    static func xrgb(_ size: FrameSize, _ word: (Int, Int) -> UInt32) -> PixelBuffer {
        let buffer = PixelBuffer(format: .xrgb8888, size: size)
        for y in 0..<size.height {
            for x in 0..<size.width { buffer.row(y).storeBytes(of: word(x, y), toByteOffset: x * 4, as: UInt32.self) }
        }
        return buffer
    }

    static func pixel(_ buffer: borrowing PixelBuffer, _ x: Int, _ y: Int) -> UInt32 {
        buffer.row(y).load(fromByteOffset: x * 4, as: UInt32.self)
    }

    static func word(_ r: Int32, _ g: Int32, _ b: Int32, top: UInt32 = 0xFF) -> UInt32 {
        top << 24 | UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
    }

    /// A deterministic byte sequence for "random" images.
    static func noise(_ x: Int, _ y: Int, _ salt: Int) -> UInt8 {
        var value = UInt32(truncatingIfNeeded: x &* 73_856_093 ^ y &* 19_349_663 ^ salt &* 83_492_791)
        value ^= value >> 13
        value = value &* 0x5BD1_E995
        value ^= value >> 15
        return UInt8(truncatingIfNeeded: value)
    }
}
