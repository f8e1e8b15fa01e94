import Frames
import ImageCodec
import KernelIO

/// Writes each composed frame as DIR/NNNNNN.png (the numbering `backdrop render` uses), for
/// looking at single frames and comparing builds. PNG encoding allocates inside libspng, so this
/// sink is for offline work, not for the steady-state appliance.
public final class PNGSequenceSink: FrameSink {
    public let outputSize: FrameSize
    public let directory: String
    private let buffers: [SlotBuffer]
    public private(set) var framesWritten = 0
    private var failure: String?

    public init(directory: String, outputSize: FrameSize, slots: Int = 2) throws(SystemError) {
        self.directory = directory
        self.outputSize = outputSize
        var made: [SlotBuffer] = []
        for _ in 0..<slots { made.append(try SlotBuffer(format: .xrgb8888, size: outputSize)) }
        buffers = made
    }

    public var slotCount: Int { buffers.count }
    public var summary: String { "PNG frames in \(directory) \(outputSize.description)" }
    public func outputView(slot: Int) -> ImageView { buffers[slot].view }

    public func present(slot: Int, stamp: FrameStamp) -> UInt64? {
        guard failure == nil else { return nil }
        do throws(ImageError) {
            try PNGEncoder.write(buffers[slot].view, to: Self.framePath(directory: directory, index: framesWritten))
        } catch {
            failure = error.message
            return nil
        }
        framesWritten += 1
        return MonotonicClock.nowNanoseconds()
    }

    public func finish() -> String? { failure }

    /// DIR/000042.png: six digits, as the recording layout numbers frames.
    public static func framePath(directory: String, index: Int) -> String {
        var digits = "\(index)"
        while digits.count < 6 { digits = "0" + digits }
        return directory + "/" + digits + ".png"
    }
}
