import Compose
@_spi(Testing) import Frames
import Matte
import Scenes
import Testing
@testable import Pipeline

/// The compose pass draws the published message over the frame, and a cleared message leaves it.
@Suite struct FrameProcessorMessageTests {
    @Test func publishedMessageIsDrawnInTheComposedFrameAndClearedOneIsNot() throws {
        let size = FrameSize(width: 64, height: 48)
        let output = FrameSize(width: 320, height: 240)
        let feed = try SyntheticSource(seed: 2, colorFormat: .yuyv, colorSize: size, depthSize: size, frameLimit: nil, paced: false)
        _ = feed.nextEvent(timeoutNanoseconds: 0)
        let processor = try FrameProcessor(colorFormat: .yuyv, colorSize: size, depthSize: size, outputSize: output,
                                           fit: .fill, matte: MatteParameters(), projection: nil,
                                           helperCPUMasks: [0], realtimePriority: 0)
        defer { processor.stop() }
        // A white backdrop: the message's black box is the only black there can be.
        let background = PixelBuffer(format: .xrgb8888, size: output)
        for row in 0..<output.height {
            background.view.row(row).initializeMemory(as: UInt8.self, repeating: 0xFF, count: output.width * 4)
        }
        let frame = PixelBuffer(format: .xrgb8888, size: output)
        let reference = MessageSlot()
        reference.publish("PHOTO SAVED")
        let region = try #require(MessageLayer(outputSize: output).region(for: reference.take()))
        func corner() -> UInt32 { frame.view.row(region.y + 1).load(fromByteOffset: (region.x + 1) * 4, as: UInt32.self) }

        processor.buildMatte(depth: feed.depthView(slot: 0), unitMM: 1)
        processor.messages.publish("PHOTO SAVED")
        processor.compose(camera: feed.colorView(slot: 0), background: background.view, into: frame.view)
        #expect(corner() & 0x00FF_FFFF == 0, "the message box is drawn")

        processor.messages.clear()
        processor.compose(camera: feed.colorView(slot: 0), background: background.view, into: frame.view)
        #expect(corner() & 0x00FF_FFFF != 0, "a cleared message leaves the frame")
    }
}
