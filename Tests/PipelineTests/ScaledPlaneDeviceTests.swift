import Compose
import Foundation
@_spi(Testing) import Frames
import Matte
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
}
