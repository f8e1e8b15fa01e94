import Backgrounds
import Frames
import ImageCodec
import KernelIO
import Runtime

/// `backdrop make-backdrops DIR [--size WxH] [--jpeg]`: writes the project's own backdrops as PNG
/// (or JPEG) files, for a box's backgrounds folder (the OS image lays them in) or a USB stick to
/// start from.
enum MakeBackdropsCommand {
    static func run(_ arguments: [String]) throws(CommandFailure) {
        let options = try CommandOptions.parse(arguments, valued: ["--size"], flags: ["--jpeg", "--force"])
        let directory = try options.positionals(1, names: "DIR (the folder the PNG files go into)")[0]
        let size = try options.size("--size") ?? FrameSize(width: 1920, height: 1080)
        let jpeg = options.has("--jpeg")
        try OutputDirectory.prepare(directory, for: "make-backdrops", force: options.has("--force"), option: "DIR")
        for backdrop in GeneratedBackdrop.all {
            let buffer = try FrameMemory.buffer(.xrgb8888, size)
            backdrop.draw(into: buffer.view)
            let path = directory + "/" + backdrop.name + (jpeg ? ".jpg" : ".png")
            do throws(ImageError) {
                if jpeg {
                    // From libturbojpeg's buffer: no Swift array copy that could trap at --size 16384x16384.
                    try JPEGEncoder.withEncoded(buffer.view, quality: 90) { bytes throws(ImageError) in
                        do throws(SystemError) {
                            let folder = try DirectoryDescriptor.open(directory)
                            let file = try DurableFile(backdrop.name + ".jpg", in: folder)
                            try file.write(bytes)
                            try file.commit(in: folder)
                        } catch {
                            throw ImageError.writeFailed(path: path, reason: error.message)
                        }
                    }
                } else {
                    try PNGEncoder.write(buffer.view, to: path)
                }
            } catch {
                throw .runtime("cannot write \(path): \(error.message)")
            }
        }
        StandardOutput.line("make-backdrops: wrote \(GeneratedBackdrop.all.count) backdrops (\(size.description)) to \(directory)")
    }
}
