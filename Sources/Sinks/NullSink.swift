import Frames
import KernelIO

/// Throws frames away; for benchmarks and the allocation test. Owns two output buffers so the
/// compose stage writes real memory exactly as it would for a display.
public final class NullSink: FrameSink {
    public let outputSize: FrameSize
    private let buffers: [SlotBuffer]

    public init(outputSize: FrameSize, slots: Int = 2) throws(SystemError) {
        self.outputSize = outputSize
        var made: [SlotBuffer] = []
        for _ in 0..<slots { made.append(try SlotBuffer(format: .xrgb8888, size: outputSize)) }
        buffers = made
    }

    public var slotCount: Int { buffers.count }
    public var summary: String { "null sink \(outputSize.description)" }
    public func outputView(slot: Int) -> ImageView { buffers[slot].view }
    public func present(slot: Int, stamp: FrameStamp) -> UInt64? { MonotonicClock.nowNanoseconds() }
    public func finish() -> String? { nil }
}
