import Backgrounds
import Frames
import ImageCodec
import KernelIO

/// `backdrop make-backdrops DIR [--size WxH]`: writes the project's own backdrops as PNG files, for
/// a box's backgrounds folder (the OS image lays them in) or a USB stick to start from.
enum MakeBackdropsCommand {
    static func run(_ arguments: [String]) throws(CommandFailure) {
        let options = try CommandOptions.parse(arguments, valued: ["--size"], flags: [])
        let directory = try options.positionals(1, names: "DIR (the folder the PNG files go into)")[0]
        let size = try options.size("--size") ?? FrameSize(width: 1920, height: 1080)
        try OutputDirectory.create(directory)
        for backdrop in GeneratedBackdrop.all {
            let buffer = try FrameMemory.buffer(.xrgb8888, size)
            backdrop.draw(into: buffer.view)
            let path = directory + "/" + backdrop.name + ".png"
            do throws(ImageError) {
                try PNGEncoder.write(buffer.view, to: path)
            } catch {
                throw .runtime("cannot write \(path): \(error.message)")
            }
        }
        StandardOutput.line("make-backdrops: wrote \(GeneratedBackdrop.all.count) backdrops (\(size.description)) to \(directory)")
    }
}
