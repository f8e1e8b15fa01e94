import Backgrounds
import Frames
import ImageCodec

enum ImageHarness {
    // One process, one thread: libFuzzer calls the harness serially.
    nonisolated(unsafe) static let decoder = ImageDecoder()
    static let output = FrameSize(width: 64, height: 36)
    /// Headers may claim up to the product's 64 Mpx; past this the harness stops after the header,
    /// or each such input would spend its time zeroing 192 MiB instead of exploring the decoders.
    static let largestDecoded = 4 * 1024 * 1024

    static func run(_ bytes: UnsafeRawBufferPointer, scratch: ScratchFile) {
        guard scratch.write(bytes) else { return }
        do throws(ImageError) {
            let header = try decoder.header(path: scratch.path)
            guard header.size.pixelCount <= largestDecoded else { return }
            if header.naturalFormat == .rgb24 {
                let image = try BackgroundImage.load(path: scratch.path, name: "fuzz", outputSize: output, fit: .fill,
                                                     decoder: decoder)
                precondition(image.view.size == output)
            }
            let natural = try decoder.decode(path: scratch.path)
            precondition(natural.size == header.size, "decoded size differs from the header's")
        } catch {
            _ = error.message
        }
    }
}
