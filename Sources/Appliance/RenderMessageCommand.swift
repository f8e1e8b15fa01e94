import Compose
import Frames
import ImageCodec
import KernelIO
import Runtime

/// `backdrop render-message TEXT --out FILE.png [--size WxH] [--countdown]`: the message layer
/// alone, exactly as the compose pass draws TEXT (black where the layer is transparent), and the
/// rectangle it covers, so a test can compare that region of a captured frame with it.
enum RenderMessageCommand {
    static func run(_ arguments: [String]) throws(CommandFailure) {
        let options = try CommandOptions.parse(arguments, valued: ["--out", "--size"], flags: ["--countdown"])
        let text = try options.positionals(1, names: "TEXT (the message to draw)")[0]
        guard let path = options.value("--out") else { throw .invalidInput("--out FILE.png is required") }
        try OutputFile.checkExtension(path, option: "--out", allowed: [".png"])
        let size = try options.size("--size") ?? FrameSize(width: 1920, height: 1080)
        let style: MessageStyle = options.has("--countdown") ? .countdown : .caption
        let layer = MessageLayer(outputSize: size)
        let image = try FrameMemory.buffer(.xrgb8888, size)
        layer.render(text, style: style, into: image.view)
        do throws(ImageError) { try PNGEncoder.write(image.view, to: path) } catch {
            throw .runtime("cannot write \(path): \(error.message)")
        }
        guard let region = layer.region(for: text, style: style) else {
            StandardOutput.line("render-message: empty text, nothing drawn; wrote \(path)")
            return
        }
        StandardOutput.line("render-message: region \(region.x) \(region.y) \(region.width) \(region.height) of \(size.description); wrote \(path)")
    }
}
