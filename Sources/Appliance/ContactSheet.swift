import Runtime
import Backgrounds
import Frames
import ImageCodec
import KernelIO
import Pipeline
import Scenes

/// One PNG a person can open without a video player: a few frames of a run spread over its length,
/// each beside its matte (white = kept). For `demo`, each over another backdrop of the set, the
/// frames rendered again here, one at a time, because the threaded run hands its frames to the sink
/// and keeps no copies (the scene is deterministic, so they are the frames the video shows); for
/// `render --sheet`, pasted from render's own loop.
struct ContactSheet {
    static let columnsOfPairs = 2
    static let rows = 3
    static let thumbnailWidth = 480

    let frameIndices: [Int]

    /// Evenly spread frame numbers over `frameCount`, first and last included.
    init(frameCount: Int) {
        let wanted = Self.columnsOfPairs * Self.rows
        var indices: [Int] = []
        for slot in 0..<wanted {
            let index = frameCount <= 1 ? 0 : slot * (frameCount - 1) / (wanted - 1)
            if indices.last != index { indices.append(index) }
        }
        frameIndices = indices
    }

    /// The sheet being filled: each chosen frame's composite and matte, pasted as they come (by
    /// `render` from its own loop, by `write(to:scene:...)` from a second run of the scene).
    final class Canvas {
        let path: String
        private let thumbnail: FrameSize
        private let sheet: PixelBuffer
        private let rgbOutput: PixelBuffer
        private let rgbMatte: PixelBuffer
        private let small: PixelBuffer

        init(outputSize: FrameSize, matteSize: FrameSize, path: String) throws(ImageError) {
            self.path = path
            thumbnail = FrameSize(width: ContactSheet.thumbnailWidth,
                                  height: max(1, ContactSheet.thumbnailWidth * outputSize.height / max(1, outputSize.width)))
            sheet = try ContactSheet.buffer(.xrgb8888, FrameSize(width: thumbnail.width * 2 * ContactSheet.columnsOfPairs,
                                                                 height: thumbnail.height * ContactSheet.rows), path)
            rgbOutput = try ContactSheet.buffer(.rgb24, outputSize, path)
            rgbMatte = try ContactSheet.buffer(.rgb24, matteSize, path)
            small = try ContactSheet.buffer(.xrgb8888, thumbnail, path)
            ContactSheet.clear(sheet.view)
        }

        /// `composite` (XRGB at the output size) and `matte` (8-bit) side by side in slot `place`.
        func place(_ place: Int, composite: ImageView, matte: ImageView) {
            let x = (place % ContactSheet.columnsOfPairs) * 2 * thumbnail.width
            let y = (place / ContactSheet.columnsOfPairs) * thumbnail.height
            ContactSheet.toRGB(composite, into: rgbOutput.view)
            BackdropScaler.scale(rgbOutput.view, into: small.view, fit: .fit)
            ContactSheet.paste(small.view, into: sheet.view, x: x, y: y)
            ContactSheet.greyToRGB(matte, into: rgbMatte.view)
            BackdropScaler.scale(rgbMatte.view, into: small.view, fit: .fit)
            ContactSheet.paste(small.view, into: sheet.view, x: x + thumbnail.width, y: y)
        }

        func write() throws(ImageError) { try PNGEncoder.write(sheet.view, to: path) }
    }

    func write(to path: String, scene: SyntheticScene, processor: FrameProcessor, backdrops: BackgroundLibrary,
               outputSize: FrameSize) throws(ImageError) {
        let canvas = try Canvas(outputSize: outputSize, matteSize: processor.alphaView.size, path: path)
        let color = try Self.buffer(.yuyv, scene.colourSize, path)
        let depth = try Self.buffer(.z16, scene.depthSize, path)
        let composite = try Self.buffer(.xrgb8888, outputSize, path)
        for (place, frame) in frameIndices.enumerated() {
            scene.render(frame: frame, color: color.view, depth: depth.view, truth: nil)
            processor.buildMatte(depth: depth.view, unitMM: 1, colour: color.view)
            processor.compose(camera: color.view, background: try Self.backdrop(backdrops, place % backdrops.count, path),
                              into: composite.view)
            canvas.place(place, composite: composite.view, matte: processor.alphaView)
        }
        try canvas.write()
    }

    fileprivate static func clear(_ view: ImageView) {
        for y in 0..<view.size.height {
            view.row(y).bindMemory(to: UInt32.self, capacity: view.size.width)
                .update(repeating: 0xFF20_2020, count: view.size.width)
        }
    }

    fileprivate static func toRGB(_ source: ImageView, into target: ImageView) {
        for y in 0..<source.size.height {
            let from = source.row(y).bindMemory(to: UInt32.self, capacity: source.size.width)
            let to = target.row(y).bindMemory(to: UInt8.self, capacity: 3 * source.size.width)
            for x in 0..<source.size.width {
                to[3 * x] = UInt8(truncatingIfNeeded: from[x] >> 16)
                to[3 * x + 1] = UInt8(truncatingIfNeeded: from[x] >> 8)
                to[3 * x + 2] = UInt8(truncatingIfNeeded: from[x])
            }
        }
    }

    fileprivate static func greyToRGB(_ source: ImageView, into target: ImageView) {
        for y in 0..<source.size.height {
            let from = source.row(y).bindMemory(to: UInt8.self, capacity: source.size.width)
            let to = target.row(y).bindMemory(to: UInt8.self, capacity: 3 * source.size.width)
            for x in 0..<source.size.width {
                to[3 * x] = from[x]; to[3 * x + 1] = from[x]; to[3 * x + 2] = from[x]
            }
        }
    }

    fileprivate static func paste(_ source: ImageView, into target: ImageView, x: Int, y: Int) {
        for row in 0..<source.size.height {
            (target.row(y + row) + 4 * x).copyMemory(from: source.row(row), byteCount: 4 * source.size.width)
        }
    }

    /// The sheet's working frames; a refusal is the sheet's error, with its size.
    fileprivate static func buffer(_ format: PixelFormat, _ size: FrameSize, _ path: String) throws(ImageError) -> PixelBuffer {
        do throws(SystemError) { return try PixelBuffer(allocating: format, size: size) } catch {
            throw .outOfMemory(path: path, width: size.width, height: size.height)
        }
    }

    private static func backdrop(_ backdrops: BackgroundLibrary, _ index: Int, _ path: String) throws(ImageError) -> ImageView {
        do throws(SystemError) { return try backdrops.view(at: index) } catch {
            throw .outOfMemory(path: path, width: backdrops.outputSize.width, height: backdrops.outputSize.height)
        }
    }
}
