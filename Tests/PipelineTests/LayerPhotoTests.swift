import Foundation
@_spi(Testing) import Frames
import ImageCodec
import KernelIO
import Matte
import Photos
import Scenes
import TestSupport
import Testing
@testable import Compose
@testable import Pipeline

/// The photo worker's "finished" signal, as the loop's eventfd would receive it.
private final class PhotoFinished: @unchecked Sendable {
    let semaphore: KernelIO.Semaphore
    init() throws { semaphore = try KernelIO.Semaphore() }
    func signal() { semaphore.post() }
    /// 20 s is a hang detector, not a speed bound.
    func wait() -> Bool { semaphore.wait(timeoutMilliseconds: 20_000) }
}

/// Layer mode on a display without writeback: the sink hands the shutter the composed buffer,
/// which there is the camera layer alone (the display blends it over the backdrop plane). The
/// photo must be the picture a person saw: the same as the frame mode's composite of that frame.
@Suite(.serialized) struct LayerPhotoTests {
    private let camera = FrameSize(width: 64, height: 48)
    private let output = FrameSize(width: 96, height: 72)

    /// One synthetic frame through a processor in `mode` over `backdrop`, into a buffer of `format`.
    private func composed(_ mode: FrameProcessor.OutputMode, format: PixelFormat, backdrop: ImageView) throws -> PixelBuffer {
        try composed(mode, format: format, backdrop: backdrop, camera: camera, output: output, fit: .fit)
    }

    /// The same at any output size and fit; the buffer is the processor's `composedSize`.
    private func composed(_ mode: FrameProcessor.OutputMode, format: PixelFormat, backdrop: ImageView, camera: FrameSize,
                          output: FrameSize, fit: FitMode) throws -> PixelBuffer {
        var feed = try SyntheticSource(seed: 11, colorFormat: .yuyv, colorSize: camera, depthSize: camera,
                                   frameLimit: nil, paced: false)
        var colour = -1, depth = -1
        while colour < 0 || depth < 0 {
            switch feed.nextEvent(timeoutNanoseconds: 0) {
            case .color(let slot, _): colour = slot
            case .depth(let slot, _): depth = slot
            default: break
            }
        }
        let processor = try FrameProcessor(colorFormat: .yuyv, colorSize: camera, depthSize: camera, outputSize: output,
                                           fit: fit, matte: MatteParameters(), projection: nil,
                                           helperCPUMasks: [], realtimePriority: 0)
        processor.setOutputMode(mode)
        let result = PixelBuffer(format: format, size: processor.composedSize)
        processor.buildMatte(depth: feed.depthView(slot: depth), unitMM: feed.depthUnitMM, colour: feed.colorView(slot: colour))
        processor.compose(camera: feed.colorView(slot: colour), background: backdrop, into: result.view)
        processor.stop()
        #expect(processor.placement == LayerPlacement(layer: camera, output: output, fit: fit))
        return result
    }

    private func gradient() -> PixelBuffer { gradient(output) }

    private func gradient(_ output: FrameSize) -> PixelBuffer {
        let backdrop = PixelBuffer(format: .xrgb8888, size: output)
        for y in 0..<output.height {
            let row = backdrop.row(y).bindMemory(to: UInt32.self, capacity: output.width)
            for x in 0..<output.width {
                row[x] = 0xFF00_0000 | UInt32(x * 255 / output.width) << 16 | UInt32(y * 255 / output.height) << 8 | 0x40
            }
        }
        return backdrop
    }

    /// Largest difference of any colour channel between two pictures of `output`'s size in the
    /// same format (XRGB/ARGB8888, or RGB24 as a decoder may give).
    private func largestDifference(_ a: ImageView, _ b: ImageView) -> Int {
        precondition(a.size == b.size && (a.format == .rgb24) == (b.format == .rgb24))
        let step = a.format == .rgb24 ? 3 : 4
        var largest = 0
        for y in 0..<a.size.height {
            let p = a.row(y).assumingMemoryBound(to: UInt8.self), q = b.row(y).assumingMemoryBound(to: UInt8.self)
            for x in 0..<a.size.width {
                for c in 0..<3 { largest = max(largest, abs(Int(p[x * step + c]) - Int(q[x * step + c]))) }
            }
        }
        return largest
    }

    /// Writes one photo with `layout` and returns its JPEG decoded.
    private func photo(_ layout: PhotoLayout, _ capture: (PhotoWriter) -> Bool) throws -> PixelBuffer {
        let folder = TemporaryDirectory("layer-photo")
        let finished = try PhotoFinished()
        let writer = try PhotoWriter(directory: folder.path, layout: layout, notify: { finished.signal() })
        defer { writer.stop() }
        #expect(capture(writer))
        #expect(writer.startEncode())
        #expect(finished.wait())
        guard case .saved(let name) = writer.takeResult() else {
            Issue.record("the photo was not saved")
            return PixelBuffer(format: .xrgb8888, size: output)
        }
        return try ImageDecoder().decode(path: folder.file(name))
    }

    @Test(arguments: [false, true])
    func theLayerOverTheBackdropIsTheFrameModesComposite(premultiplied: Bool) throws {
        let backdrop = gradient()
        let frame = try composed(.frame, format: .xrgb8888, backdrop: backdrop.view)
        let layer = try composed(.layer(premultiplied: premultiplied), format: .argb8888, backdrop: backdrop.view)
        let flat = PixelBuffer(format: .xrgb8888, size: output)
        LayerFlatten.flatten(layer: layer.view, premultiplied: premultiplied, over: backdrop.view, into: flat.view)
        // Straight: the same arithmetic, bit for bit; premultiplied rounds twice (at most 1 off).
        #expect(largestDifference(flat.view, frame.view) <= (premultiplied ? 1 : 0))
        #expect(largestDifference(layer.view, frame.view) > 32, "the scene has backdrop showing around the person")
    }

    @Test(arguments: [false, true])
    func aPhotoWithoutWritebackInLayerModeIsThePictureShown(premultiplied: Bool) throws {
        let backdrop = gradient()
        let frame = try composed(.frame, format: .xrgb8888, backdrop: backdrop.view)
        let layer = try composed(.layer(premultiplied: premultiplied), format: .argb8888, backdrop: backdrop.view)
        let expected = try photo(PhotoLayout(compositeSize: output)) { $0.capture(composite: frame.view, at: 1_000_000_000) }
        let layered = try photo(PhotoLayout(compositeSize: output, planes: .layerOverBackdrop(premultiplied: premultiplied))) {
            $0.capture(layer: layer.view, over: backdrop.view, at: 1_000_000_000)
        }
        let layerAlone = try photo(PhotoLayout(compositeSize: output)) { $0.capture(composite: layer.view, at: 1_000_000_000) }
        // Both JPEGs of (nearly) the same picture: straight encodes the same pixels.
        #expect(largestDifference(layered.view, expected.view) <= (premultiplied ? 3 : 0))
        #expect(largestDifference(layerAlone.view, expected.view) > 32, "the old photo (the layer alone) is told apart")
    }

    /// A display that scales the camera-sized layer (`.cameraLayer`): the layer, flattened over
    /// the backdrop as the display scales it, is the frame mode's composite of the same frame
    /// (the CPU path's nearest upscale): straight bit for bit, premultiplied within 1; and the
    /// photo writer given that layer and the backdrop saves that picture. 16:9 over a 4:3 camera, so fill crops
    /// the layer and fit letterboxes it.
    @Test(arguments: [(false, FitMode.fill), (true, FitMode.fill), (false, FitMode.fit), (true, FitMode.fit)])
    func aCameraSizedLayerFlattenedIsTheFrameModesComposite(premultiplied: Bool, fit: FitMode) throws {
        // Big enough for the synthetic scene's person to be found by the matte.
        let camera = FrameSize(width: 160, height: 120), wide = FrameSize(width: 384, height: 216)
        let backdrop = gradient(wide)
        let frame = try composed(.frame, format: .xrgb8888, backdrop: backdrop.view, camera: camera, output: wide, fit: fit)
        let layer = try composed(.cameraLayer(premultiplied: premultiplied), format: .argb8888, backdrop: backdrop.view,
                                 camera: camera, output: wide, fit: fit)
        #expect(layer.size == camera)
        let placement = LayerPlacement(layer: camera, output: wide, fit: fit)
        let flat = PixelBuffer(format: .xrgb8888, size: wide)
        LayerFlatten.flatten(layer: layer.view, placedBy: placement, premultiplied: premultiplied,
                             over: backdrop.view, into: flat.view)
        #expect(largestDifference(flat.view, frame.view) <= (premultiplied ? 1 : 0))
        #expect(largestDifference(flat.view, backdrop.view) > 32, "the person is in the picture")

        // The writer's JPEG is the JPEG of that picture: the same pixels through the same encoder.
        // (Against the frame mode's JPEG, premultiplied's 1-level differences grow to ~15 through
        // the quantiser at this size.)
        let expected = try photo(PhotoLayout(compositeSize: wide)) { $0.capture(composite: flat.view, at: 1_000_000_000) }
        let layered = try photo(PhotoLayout(compositeSize: wide, planes: .layerOverBackdrop(premultiplied: premultiplied),
                                            layerPlacement: placement)) {
            $0.capture(layer: layer.view, over: backdrop.view, at: 1_000_000_000)
        }
        #expect(largestDifference(layered.view, expected.view) == 0)
    }
}
