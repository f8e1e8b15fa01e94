import CTurboJPEG
@_spi(Testing) import Frames
import Testing
@testable import Capture

@Suite struct MJPEGDecoderTests {
    static let height = 32
    let image = TestJPEG.stripeImage(height: MJPEGDecoderTests.height)
    var size: FrameSize { FrameSize(width: image.width, height: Self.height) }

    @Test(arguments: [TJSAMP_422, TJSAMP_420, TJSAMP_444])
    func decodesToLimitedRangeYUYV(subsampling: TJSAMP) throws {
        let jpeg = TestJPEG.encode(image.pixels, width: image.width, height: Self.height, subsampling: subsampling)
        let decoder = try MJPEGDecoder(size: size, output: .yuyv)
        let frame = PixelBuffer(format: .yuyv, size: size)
        let decoded = jpeg.withUnsafeBytes { decoder.decode($0, into: frame.view) }
        #expect(decoded)
        let bytes = frame.base.assumingMemoryBound(to: UInt8.self)
        for (index, colour) in TestJPEG.stripes.enumerated() {
            let expected = TestJPEG.limitedYCbCr(colour)
            let pair = (16 * index + 8) / 2
            for row in [4, 16, 27] {
                let at = bytes + row * frame.bytesPerRow + pair * 4
                #expect(abs(Double(at[0]) - expected.y) <= 3, "Y of stripe \(index) row \(row): \(at[0]) vs \(expected.y)")
                #expect(abs(Double(at[2]) - expected.y) <= 3)
                #expect(abs(Double(at[1]) - expected.cb) <= 3, "Cb of stripe \(index): \(at[1]) vs \(expected.cb)")
                #expect(abs(Double(at[3]) - expected.cr) <= 3, "Cr of stripe \(index): \(at[3]) vs \(expected.cr)")
            }
        }
    }

    @Test func decodesToRGB24() throws {
        let jpeg = TestJPEG.encode(image.pixels, width: image.width, height: Self.height, subsampling: TJSAMP_422)
        let decoder = try MJPEGDecoder(size: size, output: .rgb24)
        let frame = PixelBuffer(format: .rgb24, size: size)
        #expect(jpeg.withUnsafeBytes { decoder.decode($0, into: frame.view) })
        let bytes = frame.base.assumingMemoryBound(to: UInt8.self)
        for (index, colour) in TestJPEG.stripes.enumerated() {
            let at = bytes + 16 * frame.bytesPerRow + (16 * index + 8) * 3
            let error = max(abs(Int(at[0]) - colour.r), abs(Int(at[1]) - colour.g), abs(Int(at[2]) - colour.b))
            #expect(error <= 4, "stripe \(index): \(at[0]) \(at[1]) \(at[2])")
        }
    }

    @Test func greyJPEGsGiveNeutralChroma() throws {
        let grey = [UInt8](repeating: 200, count: image.width * Self.height)
        let jpeg = TestJPEG.encode(grey, width: image.width, height: Self.height, subsampling: TJSAMP_GRAY, grey: true)
        let decoder = try MJPEGDecoder(size: size, output: .yuyv)
        let frame = PixelBuffer(format: .yuyv, size: size)
        #expect(jpeg.withUnsafeBytes { decoder.decode($0, into: frame.view) })
        let at = frame.base.assumingMemoryBound(to: UInt8.self) + 10 * frame.bytesPerRow + 20
        let expectedLuma: Double = 16 + 200.0 * 219 / 255
        #expect(abs(Double(at[0]) - expectedLuma) <= 2)
        #expect(at[1] == 128 && at[3] == 128)
    }

    @Test func framesOfAnotherSizeOrNotJPEGAreRefused() throws {
        let decoder = try MJPEGDecoder(size: FrameSize(width: 64, height: 32), output: .yuyv)
        let frame = PixelBuffer(format: .yuyv, size: FrameSize(width: 64, height: 32))
        let jpeg = TestJPEG.encode(image.pixels, width: image.width, height: Self.height, subsampling: TJSAMP_422)
        #expect(!jpeg.withUnsafeBytes { decoder.decode($0, into: frame.view) })
        let garbage = [UInt8](repeating: 0x55, count: 500)
        #expect(!garbage.withUnsafeBytes { decoder.decode($0, into: frame.view) })
        #expect(!([] as [UInt8]).withUnsafeBytes { decoder.decode($0, into: frame.view) })
    }

    @Test func onlyYUYVAndRGB24AreDecodeTargets() {
        #expect(throws: CaptureError.self) { try MJPEGDecoder(size: FrameSize(width: 64, height: 32), output: .nv12) }
        #expect(throws: CaptureError.self) { try MJPEGDecoder(size: FrameSize(width: 63, height: 32), output: .yuyv) }
    }

    @Test func eachSlotDecodesIntoItsOwnImage() throws {
        let frames = try DecodedFrames(format: .yuyv, size: FrameSize(width: 80, height: 32), slots: 3)
        let first = frames.view(slot: 0), second = frames.view(slot: 1)
        #expect(first.bytesPerRow >= 160 && first.bytesPerRow % 64 == 0)
        #expect(second.base - first.base >= first.bytesPerRow * 32)
    }
}
