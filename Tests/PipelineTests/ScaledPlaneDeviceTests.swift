import Compose
import Foundation
@_spi(Testing) import Frames
import Matte
import Runtime
import Scanout
import Scenes
import Testing
@testable import Pipeline

/// Against a real KMS driver with writeback (vkms on the virtual board, patched to scale planes:
/// vboard/patches/0005; tests/vboard/scanout.sh runs this there). Skipped elsewhere.
private let device: String? = {
    guard let sink = try? KMSSink(options: KMSSinkOptions(blend: .plane)) else { return nil }
    return sink.writebackAvailable ? sink.summary : nil
}()

@Suite(.serialized, .enabled(if: device != nil, "no KMS display with an overlay plane and writeback here (vkms on the virtual board: tests/vboard/scanout.sh)"))
struct ScaledPlaneDeviceTests {
    /// A 320x240 camera on an 848x480 display (small: the board is emulated and this is the
    /// debug build), fill (source cropped) and fit (target inset):
    /// the display scales the camera-sized layer over the backdrop plane, and the frame it
    /// shows (written back) is the CPU path's composite of the same camera frame and matte.
    @Test(arguments: [FitMode.fill, FitMode.fit])
    func theDisplayScalesTheCameraLayerToTheCPUComposite(fit: FitMode) throws {
        let camera = FrameSize(width: 320, height: 240)
        let wanted = FrameSize(width: 848, height: 480)
        let cpu = try FrameProcessor(colorFormat: .yuyv, colorSize: camera, depthSize: camera, outputSize: wanted,
                                     fit: fit, matte: MatteParameters(), projection: nil,
                                     helperCPUMasks: [0], realtimePriority: 0)
        defer { cpu.stop() }
        let layered = try FrameProcessor(colorFormat: .yuyv, colorSize: camera, depthSize: camera, outputSize: wanted,
                                         fit: fit, matte: MatteParameters(), projection: nil,
                                         helperCPUMasks: [0], realtimePriority: 0)
        defer { layered.stop() }
        let sink = try KMSSink(options: KMSSinkOptions(mode: wanted, blend: .plane, writeback: true,
                                                       scaledLayer: ScaledLayer(camera: camera, mapping: cpu.mapping)))
        print("scaled plane (\(fit)): \(sink.summary)")
        try #require(sink.outputSize == wanted, "vkms did not grant \(wanted.description)")
        try #require(sink.scaledLayer != nil, "the display did not take the scaled layer: \(sink.planReason)")
        guard case .plane(let premultiplied) = sink.blend else { Issue.record("not in plane mode"); return }
        #expect(premultiplied)
        layered.setOutputMode(.cameraLayer(premultiplied: true))
        #expect(layered.composedSize == camera)

        // A backdrop that varies in both directions, so a misplaced layer shows.
        let backdrop = try #require(sink.backdropView)
        for y in 0..<wanted.height {
            let row = backdrop.row(y).assumingMemoryBound(to: UInt32.self)
            for x in 0..<wanted.width {
                row[x] = 0xFF00_0000 | UInt32(x * 255 / wanted.width) << 16 | UInt32(y * 255 / wanted.height) << 8 | UInt32((x ^ y) & 0xFF)
            }
        }
        let feed = try SyntheticSource(seed: 5, colorFormat: .yuyv, colorSize: camera, depthSize: camera, frameLimit: nil, paced: false)
        _ = feed.nextEvent(timeoutNanoseconds: 0)
        let expected = PixelBuffer(format: .xrgb8888, size: wanted)
        cpu.buildMatte(depth: feed.depthView(slot: 0), unitMM: feed.depthUnitMM, colour: feed.colorView(slot: 0))
        cpu.compose(camera: feed.colorView(slot: 0), background: backdrop, into: expected.view)

        let slot = (0..<sink.slotCount).first { sink.queue.isFree($0) }!
        let layer = sink.outputView(slot: slot)
        #expect(layer.size == camera && layer.format == .argb8888)
        layered.buildMatte(depth: feed.depthView(slot: 0), unitMM: feed.depthUnitMM, colour: feed.colorView(slot: 0))
        layered.compose(camera: feed.colorView(slot: 0), background: backdrop, into: layer)
        // The matte must have a subject and a background for the comparison to test the blend.
        var opaque = 0, clear = 0
        for y in 0..<camera.height {
            let row = layered.alphaView.row(y).assumingMemoryBound(to: UInt8.self)
            for x in 0..<camera.width { if row[x] == 255 { opaque += 1 } else if row[x] == 0 { clear += 1 } }
        }
        #expect(opaque > camera.pixelCount / 20 && clear > camera.pixelCount / 20, "matte: \(opaque) opaque, \(clear) clear")

        #expect(sink.armWriteback())
        #expect(sink.present(slot: slot, stamp: FrameStamp(nanoseconds: 0, sequence: 0)) != nil)
        let result = sink.withWriteback(timeoutMS: 10_000) { shown -> (psnr: Double, worst: Int) in
            var squares = 0.0, worst = 0
            for y in 0..<wanted.height {
                let a = shown.row(y).assumingMemoryBound(to: UInt32.self)
                let b = expected.view.row(y).assumingMemoryBound(to: UInt32.self)
                for x in 0..<wanted.width {
                    for shift: UInt32 in [16, 8, 0] {
                        let d = Int((a[x] >> shift) & 0xFF) - Int((b[x] >> shift) & 0xFF)
                        squares += Double(d * d)
                        worst = max(worst, abs(d))
                    }
                }
            }
            let mse = squares / Double(wanted.pixelCount * 3)
            return (mse == 0 ? 99 : 10 * log10(255 * 255 / mse), worst)
        }
        let measured = try #require(result, "no writeback")
        print("scaled plane (\(fit)): written-back frame against the CPU composite: PSNR \(measured.psnr) dB, largest channel difference \(measured.worst)")
        #expect(measured.psnr >= 40, "PSNR \(measured.psnr) dB")
    }

    /// The device run's order: the display opens before the camera (output-sized layer), then
    /// the 640x480 camera's layer is adopted (`adoptScaledLayer`, TEST_ONLY). The frame the display
    /// shows (written back) is the photo a box without writeback makes of the same layer
    /// (LayerFlatten placed by the same mapping): the person over the backdrop at the same place.
    /// A message drawn into the layer shows in the output's message region.
    @Test func aVGACameraOnTheDefaultModeTakesTheScaledLayerAndThePhotoIsWhatIsShown() throws {
        let camera = FrameSize(width: 640, height: 480)
        let wanted = FrameSize(width: 1024, height: 768)
        let sink = try KMSSink(options: KMSSinkOptions(mode: wanted, blend: .auto, writeback: true))
        try #require(sink.outputSize == wanted, "vkms did not grant \(wanted.description)")
        guard case .plane(let premultiplied) = sink.blend else { Issue.record("not in plane mode: \(sink.summary)"); return }
        #expect(sink.outputView(slot: 0).size == wanted)
        let processor = try FrameProcessor(colorFormat: .yuyv, colorSize: camera, depthSize: camera, outputSize: wanted,
                                           fit: .fill, matte: MatteParameters(), projection: nil,
                                           helperCPUMasks: [0], realtimePriority: 0)
        defer { processor.stop() }
        #expect(try sink.adoptScaledLayer(ScaledLayer(camera: camera, mapping: processor.mapping)))
        print("scaled plane (adopted): \(sink.summary)")
        #expect(sink.scaledLayer?.size == camera)
        #expect(sink.planReason.hasPrefix("the display scales the camera layer"), "\(sink.planReason)")
        processor.setOutputMode(.cameraLayer(premultiplied: premultiplied))

        let backdrop = try #require(sink.backdropView)
        for y in 0..<wanted.height {
            let row = backdrop.row(y).assumingMemoryBound(to: UInt32.self)
            for x in 0..<wanted.width {
                row[x] = 0xFF00_0000 | UInt32(x * 255 / wanted.width) << 16 | UInt32(y * 255 / wanted.height) << 8 | 0x40
            }
        }
        let feed = try SyntheticSource(seed: 5, colorFormat: .yuyv, colorSize: camera, depthSize: camera, frameLimit: nil, paced: false)
        _ = feed.nextEvent(timeoutNanoseconds: 0)
        let slot = (0..<sink.slotCount).first { sink.queue.isFree($0) }!
        let layer = sink.outputView(slot: slot)
        #expect(layer.size == camera)
        processor.messages.publish("7", style: .countdown)
        processor.buildMatte(depth: feed.depthView(slot: 0), unitMM: feed.depthUnitMM, colour: feed.colorView(slot: 0))
        processor.compose(camera: feed.colorView(slot: 0), background: backdrop, into: layer)
        let photo = PixelBuffer(format: .xrgb8888, size: wanted)
        LayerFlatten.flatten(layer: layer, placedBy: processor.placement, premultiplied: premultiplied, over: backdrop,
                             into: photo.view)

        #expect(sink.armWriteback())
        #expect(sink.present(slot: slot, stamp: FrameStamp(nanoseconds: 0, sequence: 0)) != nil)
        let region = try #require(MessageLayer(outputSize: wanted).region(for: "7", style: .countdown))
        let digit = PixelBuffer(format: .argb8888, size: wanted)
        MessageLayer(outputSize: wanted).render("7", style: .countdown, into: digit.view)
        let result = sink.withWriteback(timeoutMS: 10_000) { shown -> (worst: Int, person: Int, digit: Int) in
            var worst = 0, person = 0, digitMatches = 0
            for y in 0..<wanted.height {
                let a = shown.row(y).assumingMemoryBound(to: UInt32.self)
                let b = photo.view.row(y).assumingMemoryBound(to: UInt32.self)
                let c = backdrop.row(y).assumingMemoryBound(to: UInt32.self)
                let d = digit.view.row(y).assumingMemoryBound(to: UInt32.self)
                for x in 0..<wanted.width {
                    var far = 0
                    for shift: UInt32 in [16, 8, 0] {
                        worst = max(worst, abs(Int((a[x] >> shift) & 0xFF) - Int((b[x] >> shift) & 0xFF)))
                        far = max(far, abs(Int((a[x] >> shift) & 0xFF) - Int((c[x] >> shift) & 0xFF)))
                    }
                    if far > 32 { person += 1 }
                    if region.x..<(region.x + region.width) ~= x, region.y..<(region.y + region.height) ~= y,
                       a[x] & 0xFF_FFFF == d[x] & 0xFF_FFFF { digitMatches += 1 }
                }
            }
            return (worst, person, digitMatches)
        }
        let measured = try #require(result, "no writeback")
        print("scaled plane (adopted): written back against the flattened photo: largest channel difference \(measured.worst); "
              + "\(measured.person) pixels away from the backdrop; digit region \(measured.digit) of \(region.width * region.height) as rendered")
        // vkms blends in 16 bits per channel and rounds once: within 1 of our 8-bit arithmetic.
        #expect(measured.worst <= 1)
        #expect(measured.person > wanted.pixelCount / 20, "the person shows over the backdrop")
        #expect(measured.digit * 100 >= region.width * region.height * 95, "the countdown digit shows where the output-sized one would")
    }

    /// A driver that cannot scale (forced here: vkms with 0005 can) refuses the scaled layer at
    /// TEST_ONLY: the output-sized layer stays, and the reason says the scaled one was refused.
    @Test func aRefusedScaledLayerKeepsTheOutputSizedLayerAndSaysWhy() throws {
        let camera = FrameSize(width: 640, height: 480)
        let wanted = FrameSize(width: 1024, height: 768)
        let sink = try KMSSink(options: KMSSinkOptions(mode: wanted, blend: .auto, writeback: true))
        guard case .plane = sink.blend else { Issue.record("not in plane mode: \(sink.summary)"); return }
        sink.refusesScaling = true
        let mapping = CameraMapping(camera: camera, output: wanted, fit: .fill)
        #expect(try sink.adoptScaledLayer(ScaledLayer(camera: camera, mapping: mapping)) == false)
        print("scaled plane refused: \(sink.summary)")
        #expect(sink.scaledLayer == nil)
        #expect(sink.outputView(slot: 0).size == wanted)
        #expect(sink.planReason.contains("a scaled overlay refused"), "\(sink.planReason)")
        let slot = (0..<sink.slotCount).first { sink.queue.isFree($0) }!
        #expect(sink.present(slot: slot, stamp: FrameStamp(nanoseconds: 0, sequence: 0)) != nil, "the output-sized layer still flips")
    }
}
