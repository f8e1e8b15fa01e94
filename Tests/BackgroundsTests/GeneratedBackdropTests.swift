@testable import Backgrounds
@_spi(Testing) import Frames
import Testing

@Suite struct GeneratedBackdropTests {
    static func drawn(_ backdrop: GeneratedBackdrop, _ size: FrameSize) -> [UInt32] {
        let buffer = PixelBuffer(format: .xrgb8888, size: size)
        backdrop.draw(into: buffer.view)
        var pixels: [UInt32] = []
        for y in 0..<size.height {
            let row = buffer.row(y).bindMemory(to: UInt32.self, capacity: size.width)
            for x in 0..<size.width { pixels.append(row[x]) }
        }
        return pixels
    }

    @Test func sameSizeGivesTheSamePixels() {
        for backdrop in GeneratedBackdrop.all {
            #expect(Self.drawn(backdrop, FrameSize(width: 96, height: 54))
                    == Self.drawn(backdrop, FrameSize(width: 96, height: 54)), "\(backdrop.name)")
        }
    }

    /// A backdrop is a picture, not a flat fill: many distinct colours, every pixel opaque, and no
    /// two backdrops alike.
    @Test func eachIsAnOpaquePictureOfItsOwn() {
        let size = FrameSize(width: 160, height: 90)
        var seen: [[UInt32]] = []
        for backdrop in GeneratedBackdrop.all {
            let pixels = Self.drawn(backdrop, size)
            #expect(pixels.allSatisfy { $0 >> 24 == 0xFF }, "\(backdrop.name) has a transparent pixel")
            #expect(Set(pixels).count > 200, "\(backdrop.name) has only \(Set(pixels).count) colours")
            #expect(!seen.contains(pixels), "\(backdrop.name) repeats another backdrop")
            seen.append(pixels)
        }
        #expect(Set(GeneratedBackdrop.all.map(\.name)).count == GeneratedBackdrop.all.count)
    }

    @Test func oddAndTinySizesAreDrawnWhole() {
        for size in [FrameSize(width: 1, height: 1), FrameSize(width: 37, height: 3), FrameSize(width: 3, height: 41)] {
            for backdrop in GeneratedBackdrop.all {
                #expect(Self.drawn(backdrop, size).count == size.pixelCount)
            }
        }
    }

    @Test func theGeneratedLibraryHoldsEveryBackdropAtOutputSize() throws {
        let size = FrameSize(width: 64, height: 36)
        let library = try BackgroundLibrary.generated(outputSize: size)
        #expect(library.count == GeneratedBackdrop.all.count)
        #expect(!library.usesBuiltInDefault)
        for (index, backdrop) in GeneratedBackdrop.all.enumerated() {
            #expect(library.name(at: index) == backdrop.name)
            #expect(try library.view(at: index).size == size)
        }
    }
}
