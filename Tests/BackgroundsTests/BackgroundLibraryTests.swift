@testable import Backgrounds
import CKernel
import TestSupport
@_spi(Testing) import Frames
import ImageCodec
import Testing

@Suite struct BackgroundLibraryTests {
    static let output = FrameSize(width: 32, height: 18)

    static func solid(_ size: FrameSize, _ rgb: (UInt8, UInt8, UInt8)) -> PixelBuffer {
        halves(size, rgb, rgb)
    }

    /// Left half one colour, right half another.
    static func halves(_ size: FrameSize, _ left: (UInt8, UInt8, UInt8), _ right: (UInt8, UInt8, UInt8)) -> PixelBuffer {
        let buffer = PixelBuffer(format: .rgb24, size: size)
        for y in 0..<size.height {
            let row = buffer.row(y).assumingMemoryBound(to: UInt8.self)
            for x in 0..<size.width {
                let c = x < size.width / 2 ? left : right
                row[x * 3] = c.0; row[x * 3 + 1] = c.1; row[x * 3 + 2] = c.2
            }
        }
        return buffer
    }

    static func pixel(_ view: ImageView, _ x: Int, _ y: Int) -> UInt32 {
        view.row(y).load(fromByteOffset: x * 4, as: UInt32.self)
    }

    @Test func goodFilesLoadInNameOrderAndBadOnesAreNamedInWarnings() throws {
        let directory = TemporaryDirectory("backgrounds")
        // Buffers are bound to names so they outlive the views the encoders read.
        let red = Self.solid(FrameSize(width: 64, height: 36), (255, 0, 0))
        try PNGEncoder.write(red.view, to: directory.file("b-red.png"))
        let green = Self.solid(FrameSize(width: 48, height: 27), (0, 255, 0))
        _ = directory.write("a-green.jpg", try JPEGEncoder.encode(green.view, quality: 95))
        let other = Self.solid(FrameSize(width: 64, height: 64), (1, 2, 3))
        let png = try PNGEncoder.encode(other.view)
        _ = directory.write("c-truncated.png", Array(png.prefix(png.count / 2)))
        _ = directory.write("d-notes.png", Array("just text".utf8))
        _ = directory.write("e-empty.jpg", [])
        _ = directory.write(".hidden.png", png)
        #expect(bk_mkdir(directory.file("f-subfolder"), 0o755) == 0)
        let depth = PixelBuffer(format: .z16, size: FrameSize(width: 4, height: 4))
        try PNGEncoder.write(depth.view, to: directory.file("g-depth.png"))

        let (library, warnings) = try BackgroundLibrary.load(directory: directory.path, outputSize: Self.output, fit: .fill)
        #expect(library.count == 2)
        #expect(!library.usesBuiltInDefault)
        #expect(library.name(at: 0) == "a-green.jpg" && library.name(at: 1) == "b-red.png")
        #expect(warnings.count == 4)
        for name in ["c-truncated.png", "d-notes.png", "e-empty.jpg", "g-depth.png"] {
            #expect(warnings.contains { $0.contains(name) }, "no warning names \(name): \(warnings)")
        }
        #expect(warnings.first { $0.contains("c-truncated") }?.contains("corrupt") == true)
        #expect(library.current.size == Self.output && library.current.format == .xrgb8888)
        // Green JPEG, scaled: close to pure green.
        let greenPixel = Self.pixel(try library.view(at: 0), 16, 9)
        #expect((greenPixel >> 8) & 0xFF > 240 && (greenPixel >> 16) & 0xFF < 16)
        #expect(Self.pixel(try library.view(at: 1), 0, 0) == 0xFFFF_0000)
    }

    @Test func missingOrEmptyFolderFallsBackToTheBuiltInGradient() throws {
        let (missing, missingWarnings) = try BackgroundLibrary.load(directory: "/nonexistent/backdrops", outputSize: Self.output, fit: .fit)
        #expect(missing.usesBuiltInDefault && missing.count == 1)
        #expect(missingWarnings.count == 2)
        #expect(missingWarnings[0].contains("/nonexistent/backdrops"))
        let top = Self.pixel(missing.current, 0, 0), bottom = Self.pixel(missing.current, 0, 17)
        #expect(top != 0 && top != bottom)

        let directory = TemporaryDirectory("backgrounds")
        let (empty, emptyWarnings) = try BackgroundLibrary.load(directory: directory.path, outputSize: Self.output, fit: .fit)
        #expect(empty.usesBuiltInDefault && emptyWarnings.count == 1)
    }

    @Test func nextAndPreviousWrapAround() throws {
        let directory = TemporaryDirectory("backgrounds")
        for (index, colour) in [(UInt8(10), UInt8(0), UInt8(0)), (0, 20, 0), (0, 0, 30)].enumerated() {
            let image = Self.solid(FrameSize(width: 8, height: 8), colour)
            try PNGEncoder.write(image.view, to: directory.file("\(index).png"))
        }
        let (library, warnings) = try BackgroundLibrary.load(directory: directory.path, outputSize: Self.output, fit: .stretch)
        #expect(warnings.isEmpty && library.count == 3 && library.currentIndex == 0)
        library.previous()
        #expect(library.currentIndex == 2 && library.currentName == "2.png")
        #expect(Self.pixel(library.current, 5, 5) == 0xFF00_001E)
        library.next()
        #expect(library.currentIndex == 0)
        library.next(); library.next(); library.next()
        #expect(library.currentIndex == 0)
        #expect(library.select(1) && library.currentIndex == 1)
        #expect(!library.select(3) && !library.select(-1) && library.currentIndex == 1)
    }

    @Test func fitModesPlaceTheImageAsNamed() {
        // A 2:1 image (red left, blue right) onto a square output.
        let source = Self.halves(FrameSize(width: 40, height: 20), (255, 0, 0), (0, 0, 255))
        let square = FrameSize(width: 20, height: 20)
        let red: UInt32 = 0xFFFF_0000, blue: UInt32 = 0xFF00_00FF, black: UInt32 = 0xFF00_0000
        let fill = PixelBuffer(format: .xrgb8888, size: square)
        BackdropScaler.scale(source.view, into: fill.view, fit: .fill)
        // Centre 20x20 window of the source: still red left of centre, blue right, no bars.
        #expect(Self.pixel(fill.view, 0, 0) == red && Self.pixel(fill.view, 19, 19) == blue)
        #expect(Self.pixel(fill.view, 9, 10) == red && Self.pixel(fill.view, 10, 10) == blue)

        let fit = PixelBuffer(format: .xrgb8888, size: square)
        BackdropScaler.scale(source.view, into: fit.view, fit: .fit)
        // Scaled to 20x10 in rows 5...14; black bars above and below.
        for x in 0..<20 {
            #expect(Self.pixel(fit.view, x, 0) == black && Self.pixel(fit.view, x, 4) == black)
            #expect(Self.pixel(fit.view, x, 15) == black && Self.pixel(fit.view, x, 19) == black)
        }
        #expect(Self.pixel(fit.view, 0, 5) == red && Self.pixel(fit.view, 19, 14) == blue)

        let stretch = PixelBuffer(format: .xrgb8888, size: square)
        BackdropScaler.scale(source.view, into: stretch.view, fit: .stretch)
        #expect(Self.pixel(stretch.view, 0, 0) == red && Self.pixel(stretch.view, 19, 19) == blue)
        #expect(Self.pixel(stretch.view, 0, 19) == red && Self.pixel(stretch.view, 19, 0) == blue)
    }

    @Test func shrinkingAveragesAreasInsteadOfPickingSamples() {
        // One-pixel black/white checkerboard halved: every output pixel covers two of each.
        let size = FrameSize(width: 16, height: 16)
        let board = PixelBuffer(format: .rgb24, size: size)
        for y in 0..<16 {
            for x in 0..<16 {
                let value: UInt8 = (x + y) % 2 == 0 ? 255 : 0
                for c in 0..<3 { board.row(y).storeBytes(of: value, toByteOffset: x * 3 + c, as: UInt8.self) }
            }
        }
        let half = PixelBuffer(format: .xrgb8888, size: FrameSize(width: 8, height: 8))
        BackdropScaler.scale(board.view, into: half.view, fit: .stretch)
        for y in 0..<8 {
            for x in 0..<8 {
                let grey = Self.pixel(half.view, x, y) & 0xFF
                #expect(grey == 127 || grey == 128)
            }
        }
    }

    @Test func singleFileErrorsAreThrown() throws {
        let directory = TemporaryDirectory("backgrounds")
        let text = directory.write("x.png", Array("nope".utf8))
        #expect(throws: ImageError.self) { try BackgroundLibrary.single(path: text, outputSize: Self.output, fit: .fill) }
        let image = Self.solid(FrameSize(width: 8, height: 8), (1, 2, 3))
        try PNGEncoder.write(image.view, to: directory.file("ok.png"))
        let library = try BackgroundLibrary.single(path: directory.file("ok.png"), outputSize: Self.output, fit: .fill)
        #expect(library.count == 1 && library.currentName == "ok.png")
        #expect(Self.pixel(library.current, 31, 17) == 0xFF01_0203)
    }

    @Test func onlyAFewBackdropsAreDecodedAtOnceAndEachShowsItsOwnImage() throws {
        let directory = TemporaryDirectory("backgrounds")
        let count = 9
        for index in 0..<count {
            let image = Self.solid(FrameSize(width: 8, height: 8), (UInt8(10 * index), UInt8(index), 200))
            try PNGEncoder.write(image.view, to: directory.file("\(index).png"))
        }
        let (library, warnings) = try BackgroundLibrary.load(directory: directory.path, outputSize: Self.output, fit: .stretch)
        #expect(warnings.isEmpty && library.count == count)
        let slotBytes = PixelBuffer(format: .xrgb8888, size: Self.output).byteCount
        #expect(library.residentBytes == BackgroundLibrary.residentSlots * slotBytes)
        func expected(_ index: Int) -> UInt32 { 0xFF00_00C8 | UInt32(10 * index) << 16 | UInt32(index) << 8 }
        // Forward twice round, then back, then jumps: the image shown is always the one named.
        for step in 0..<(2 * count) {
            #expect(library.currentIndex == step % count)
            #expect(Self.pixel(library.current, 3, 3) == expected(step % count), "forward at \(step)")
            library.next()
        }
        for _ in 0..<count {
            library.previous()
            #expect(Self.pixel(library.current, 3, 3) == expected(library.currentIndex), "back at \(library.currentIndex)")
        }
        for index in [5, 2, 8, 0, 4] {
            #expect(library.select(index))
            #expect(Self.pixel(library.current, 3, 3) == expected(index), "jump to \(index)")
        }
        #expect(Self.pixel(try library.view(at: 7), 3, 3) == expected(7))
        // Memory stays the same however far the ring was walked (plus the one inspection slot).
        #expect(library.residentBytes == (BackgroundLibrary.residentSlots + 1) * slotBytes)
    }

    @Test func theImageShownBeforeASwitchStaysIntactUntilTwoMoreSwitches() throws {
        let directory = TemporaryDirectory("backgrounds")
        for index in 0..<6 {
            let image = Self.solid(FrameSize(width: 8, height: 8), (UInt8(40 * index), 0, 0))
            try PNGEncoder.write(image.view, to: directory.file("\(index).png"))
        }
        let (library, _) = try BackgroundLibrary.load(directory: directory.path, outputSize: Self.output, fit: .stretch)
        // Compute may still blend over the view it took before a press: a jump must not refill it.
        let shown = library.current
        #expect(library.select(3))
        #expect(Self.pixel(shown, 3, 3) == 0xFF00_0000)
        let second = library.current
        library.next()
        #expect(Self.pixel(second, 3, 3) == 0xFF78_0000)
        library.previous()
        #expect(Self.pixel(library.current, 3, 3) == 0xFF78_0000)
    }

    @Test func aFileGoneBeforeItsTurnShowsTheGradientAndSaysSo() throws {
        let directory = TemporaryDirectory("backgrounds")
        for index in 0..<5 {
            let image = Self.solid(FrameSize(width: 8, height: 8), (0, UInt8(50 * index), 0))
            try PNGEncoder.write(image.view, to: directory.file("\(index).png"))
        }
        let (library, _) = try BackgroundLibrary.load(directory: directory.path, outputSize: Self.output, fit: .stretch)
        #expect(bk_unlink(directory.file("2.png")) == 0)
        library.next()  // now 1; 2 is decoded ahead and is gone
        let problems = library.takeProblems()
        #expect(problems.count == 1 && problems[0].contains("2.png"), "\(problems)")
        library.next()
        #expect(library.currentName == "2.png" && Self.pixel(library.current, 0, 0) != 0xFF00_6400)
        #expect(library.takeProblems().isEmpty)
    }
}
