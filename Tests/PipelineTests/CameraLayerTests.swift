import Compose
@_spi(Testing) import Frames
import Matte
import Runtime
import Scanout
import Scenes
import Testing
@testable import Pipeline

/// The same comparison with the display played in software (nearest sample by pixel centre over
/// the plane's rectangles, as patched vkms does, then the premultiplied blend), so the camera
/// layer and its rectangles are checked on every machine, not only on the board.
@Suite struct CameraLayerTests {
    @Test(arguments: [FitMode.fill, FitMode.fit, FitMode.stretch])
    func theCameraLayerScaledAndBlendedIsTheCPUComposite(fit: FitMode) throws {
        let camera = FrameSize(width: 160, height: 120)
        let output = FrameSize(width: 416, height: 234)
        func processor() throws -> FrameProcessor {
            try FrameProcessor(colorFormat: .yuyv, colorSize: camera, depthSize: camera, outputSize: output, fit: fit,
                               matte: MatteParameters(), projection: nil, helperCPUMasks: [0, 0], realtimePriority: 0)
        }
        let cpu = try processor()
        defer { cpu.stop() }
        let layered = try processor()
        defer { layered.stop() }
        layered.setOutputMode(.cameraLayer(premultiplied: true))
        #expect(layered.composedSize == camera)
        let backdrop = PixelBuffer(format: .xrgb8888, size: output)
        for y in 0..<output.height {
            let row = backdrop.view.row(y).assumingMemoryBound(to: UInt32.self)
            for x in 0..<output.width { row[x] = 0xFF00_0000 | UInt32(x & 0xFF) << 16 | UInt32((y * 3) & 0xFF) << 8 | UInt32((x ^ y) & 0xFF) }
        }
        let feed = try SyntheticSource(seed: 9, colorFormat: .yuyv, colorSize: camera, depthSize: camera, frameLimit: nil, paced: false)
        _ = feed.nextEvent(timeoutNanoseconds: 0)
        let expected = PixelBuffer(format: .xrgb8888, size: output)
        cpu.buildMatte(depth: feed.depthView(slot: 0), unitMM: feed.depthUnitMM, colour: feed.colorView(slot: 0))
        cpu.compose(camera: feed.colorView(slot: 0), background: backdrop.view, into: expected.view)
        let layer = PixelBuffer(format: .argb8888, size: camera)
        layered.buildMatte(depth: feed.depthView(slot: 0), unitMM: feed.depthUnitMM, colour: feed.colorView(slot: 0))
        layered.compose(camera: feed.colorView(slot: 0), background: backdrop.view, into: layer.view)

        let plane = ScaledLayer(camera: camera, mapping: cpu.mapping)
        var worst = 0, covered = 0
        for y in 0..<output.height {
            let out = expected.view.row(y).assumingMemoryBound(to: UInt32.self)
            let back = backdrop.view.row(y).assumingMemoryBound(to: UInt32.self)
            let rowInside = y >= plane.target.y && y < plane.target.y + plane.target.height
            let sourceY = plane.source.y + ((2 * (y - plane.target.y) + 1) * plane.source.height) / (2 * plane.target.height)
            for x in 0..<output.width {
                var shown = back[x]
                if rowInside && x >= plane.target.x && x < plane.target.x + plane.target.width {
                    let sourceX = plane.source.x + ((2 * (x - plane.target.x) + 1) * plane.source.width) / (2 * plane.target.width)
                    let src = layer.view.row(sourceY).assumingMemoryBound(to: UInt32.self)[sourceX]
                    let a = Int(src >> 24)
                    shown = 0xFF00_0000
                    for shift: UInt32 in [16, 8, 0] {
                        let value = Int((src >> shift) & 0xFF) + (Int((back[x] >> shift) & 0xFF) * (255 - a) + 127) / 255
                        shown |= UInt32(min(value, 255)) << shift
                    }
                    covered += 1
                }
                for shift: UInt32 in [16, 8, 0] {
                    worst = max(worst, abs(Int((shown >> shift) & 0xFF) - Int((out[x] >> shift) & 0xFF)))
                }
            }
        }
        #expect(covered == cpu.mapping.activeColumns.count * cpu.mapping.activeRows.count)
        // Premultiplying rounds once more than the one-pass blend: one step per channel at most.
        #expect(worst <= 1, "largest channel difference \(worst)")
    }
}
