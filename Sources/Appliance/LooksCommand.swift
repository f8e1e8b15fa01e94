import Runtime
import Backgrounds
import Compose
import Frames
import ImageCodec
import KernelIO
import Looks
import Settings

/// `backdrop looks [--sheet OUT.png FRAME] [--config FILE]`: lists the looks the box knows (the
/// built-in ones and the looks folder's), or draws every one of them on one frame, named, as a
/// contact sheet, so a look is chosen by seeing it.
enum LooksCommand {
    static let thumbnailWidth = 384
    static let columns = 4

    static func run(_ arguments: [String]) throws(CommandFailure) {
        let options = try CommandOptions.parse(arguments, valued: ["--sheet", "--config"], flags: [])
        var settings = Settings.defaults
        if let path = options.value("--config") { settings = try ConfigFile.load(path) }
        let looks = BuiltInLooks.all + (try LookChoice.folder(settings.looks.directory))
        guard let sheetPath = options.value("--sheet") else {
            _ = try options.positionals(0, names: "")
            for look in looks { StandardOutput.line("\(look.name) (\(look.target.rawValue)): \(look.steps.count) step(s)") }
            return
        }
        let framePath = try options.positionals(1, names: "FRAME (a PNG or JPEG picture to show the looks on)")[0]
        let decoder = ImageDecoder()
        let header: ImageHeader
        do throws(ImageError) { header = try decoder.header(path: framePath) } catch { throw .invalidInput(error.message) }
        let thumbnail = FrameSize(width: thumbnailWidth,
                                  height: max(2, thumbnailWidth * header.size.height / max(1, header.size.width)) & ~1)
        let plain: BackgroundImage
        do throws(ImageError) {
            plain = try BackgroundImage.load(path: framePath, name: framePath, outputSize: thumbnail, fit: .fit, decoder: decoder)
        } catch {
            throw .invalidInput(error.message)
        }
        let rows = (looks.count + columns - 1) / columns
        let sheet = try FrameMemory.buffer(.xrgb8888, FrameSize(width: thumbnail.width * columns, height: thumbnail.height * rows))
        sheet.view.base.initializeMemory(as: UInt8.self, repeating: 0x20, count: sheet.view.bytesPerRow * sheet.view.size.height)
        let cell = try FrameMemory.buffer(.xrgb8888, thumbnail)
        let label = TextOverlay(colour: 0xFFFF_FFFF, boxColour: 0xFF00_0000, maximumWidthPercent: 90, maximumHeightPercent: 8)
        for (place, look) in looks.enumerated() {
            for y in 0..<thumbnail.height {
                cell.view.row(y).copyMemory(from: plain.view.row(y), byteCount: thumbnail.width * 4)
            }
            // The whole frame as the people and the backdrop would both show it.
            BackdropFill.apply(PreparedLook(Look(name: look.name, steps: look.steps, target: .both)), to: cell.view)
            label.draw(look.name, into: cell.view, centreY: thumbnail.height - thumbnail.height / 12)
            let x = (place % columns) * thumbnail.width, y = (place / columns) * thumbnail.height
            for row in 0..<thumbnail.height {
                (sheet.view.row(y + row) + 4 * x).copyMemory(from: cell.view.row(row), byteCount: 4 * thumbnail.width)
            }
        }
        do throws(ImageError) { try PNGEncoder.write(sheet.view, to: sheetPath) } catch { throw .runtime(error.message) }
        StandardOutput.line("looks: \(looks.count) looks on \(framePath) drawn to \(sheetPath)")
    }
}
