import Backgrounds
import Frames
import ImageCodec
import KernelIO
import Pipeline
import Scenes

/// One PNG a person can open without a video player: a few frames of a synthetic run spread over
/// its length, each beside its matte (white = kept), each over another backdrop of the set.
/// Frames are rendered again here, one at a time, because the threaded run hands its frames to the
/// sink and keeps no copies; the scene is deterministic, so they are the frames the video shows.
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

    func write(to path: String, scene: SyntheticScene, processor: FrameProcessor, backdrops: BackgroundLibrary,
               outputSize: FrameSize) throws(ImageError) {
        let thumbnail = FrameSize(width: Self.thumbnailWidth,
                                  height: max(1, Self.thumbnailWidth * outputSize.height / max(1, outputSize.width)))
        let sheetSize = FrameSize(width: thumbnail.width * 2 * Self.columnsOfPairs, height: thumbnail.height * Self.rows)
        let sheet = try Self.buffer(.xrgb8888, sheetSize, path)
        clear(sheet.view)
        let color = try Self.buffer(.yuyv, scene.colourSize, path)
        let depth = try Self.buffer(.z16, scene.depthSize, path)
        let composite = try Self.buffer(.xrgb8888, outputSize, path)
        let rgbOutput = try Self.buffer(.rgb24, outputSize, path)
        let rgbMatte = try Self.buffer(.rgb24, processor.alphaView.size, path)
        let small = try Self.buffer(.xrgb8888, thumbnail, path)
        for (place, frame) in frameIndices.enumerated() {
            scene.render(frame: frame, color: color.view, depth: depth.view, truth: nil)
            processor.buildMatte(depth: depth.view, unitMM: 1, colour: color.view)
            processor.compose(camera: color.view, background: try Self.backdrop(backdrops, place % backdrops.count, path),
                              into: composite.view)
            let x = (place % Self.columnsOfPairs) * 2 * thumbnail.width
            let y = (place / Self.columnsOfPairs) * thumbnail.height
            Self.toRGB(composite.view, into: rgbOutput.view)
            BackdropScaler.scale(rgbOutput.view, into: small.view, fit: .fit)
            Self.paste(small.view, into: sheet.view, x: x, y: y)
            Self.greyToRGB(processor.alphaView, into: rgbMatte.view)
            BackdropScaler.scale(rgbMatte.view, into: small.view, fit: .fit)
            Self.paste(small.view, into: sheet.view, x: x + thumbnail.width, y: y)
        }
        try PNGEncoder.write(sheet.view, to: path)
    }

    private func clear(_ view: ImageView) {
        for y in 0..<view.size.height {
            view.row(y).bindMemory(to: UInt32.self, capacity: view.size.width)
                .update(repeating: 0xFF20_2020, count: view.size.width)
        }
    }

    private static func toRGB(_ source: ImageView, into target: ImageView) {
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

    private static func greyToRGB(_ source: ImageView, into target: ImageView) {
        for y in 0..<source.size.height {
            let from = source.row(y).bindMemory(to: UInt8.self, capacity: source.size.width)
            let to = target.row(y).bindMemory(to: UInt8.self, capacity: 3 * source.size.width)
            for x in 0..<source.size.width {
                to[3 * x] = from[x]; to[3 * x + 1] = from[x]; to[3 * x + 2] = from[x]
            }
        }
    }

    private static func paste(_ source: ImageView, into target: ImageView, x: Int, y: Int) {
        for row in 0..<source.size.height {
            (target.row(y + row) + 4 * x).copyMemory(from: source.row(row), byteCount: 4 * source.size.width)
        }
    }

    /// The sheet's working frames; a refusal is the sheet's error, with its size.
    private static func buffer(_ format: PixelFormat, _ size: FrameSize, _ path: String) throws(ImageError) -> PixelBuffer {
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
