import Frames
import KernelIO

/// Writes composed frames as a YUV4MPEG2 video (4:2:0, BT.601 limited range): one file any
/// player or ffmpeg reads, cheap enough for long runs. The converted frame (one Y'CbCr 4:2:0
/// frame, 96 MiB at the 8192x8192 the schema allows) is allocated once, through the fallible
/// funnel like the slots: without the memory, `init` throws ENOMEM and the command says so.
public final class Y4MFileSink: FrameSink {
    public let outputSize: FrameSize
    public let path: String
    private let file: FileDescriptorBox
    private let buffers: [SlotBuffer]
    /// Y plane, then Cb, then Cr: the frame's bytes as written after each FRAME marker.
    private let planes: AlignedBuffer
    public private(set) var framesWritten = 0
    private var failure: String?
    private let frameMarker: [UInt8] = [70, 82, 65, 77, 69, 10]  // "FRAME\n"

    /// - frameRate: written into the header; players use it for timing only.
    public init(path: String, outputSize: FrameSize, frameRate: Int, slots: Int = 2) throws(SystemError) {
        precondition(outputSize.width % 2 == 0 && outputSize.height % 2 == 0, "Y4M 4:2:0 needs even sizes")
        self.path = path
        self.outputSize = outputSize
        file = FileDescriptorBox(try FileDescriptor.createTruncating(path))
        var made: [SlotBuffer] = []
        for _ in 0..<slots { made.append(try SlotBuffer(format: .xrgb8888, size: outputSize)) }
        buffers = made
        planes = try AlignedBuffer(byteCount: outputSize.pixelCount + outputSize.pixelCount / 2)
        let header = "YUV4MPEG2 W\(outputSize.width) H\(outputSize.height) F\(frameRate):1 Ip A1:1 C420jpeg\n"
        try write(header)
    }

    public var slotCount: Int { buffers.count }
    public var summary: String { "Y4M file \(path) \(outputSize.description)" }
    public func outputView(slot: Int) -> ImageView { buffers[slot].view }

    public func present(slot: Int, stamp: FrameStamp) -> UInt64? {
        guard failure == nil else { return nil }
        convert(buffers[slot].view)
        do {
            try writePlane(frameMarker)
            try file.descriptor.writeAll(UnsafeRawBufferPointer(start: planes.base, count: planes.byteCount))
        } catch {
            failure = error.message
            return nil
        }
        framesWritten += 1
        return MonotonicClock.nowNanoseconds()
    }

    public func finish() -> String? { failure.map { "writing \(path) failed: \($0)" } }

    /// XRGB8888 → Y'CbCr 4:2:0, BT.601 limited range, integer arithmetic so every machine writes
    /// the same bytes. Chroma is the average of each 2x2 block.
    private func convert(_ image: ImageView) {
        let width = outputSize.width
        let luma = planes.typed(UInt8.self)
        let blue = luma + outputSize.pixelCount
        let red = blue + outputSize.pixelCount / 4
        for pairRow in 0..<(outputSize.height / 2) {
            let top = image.row(pairRow * 2).assumingMemoryBound(to: UInt8.self)
            let bottom = image.row(pairRow * 2 + 1).assumingMemoryBound(to: UInt8.self)
            for pairColumn in 0..<(width / 2) {
                var sumR = 0, sumG = 0, sumB = 0
                for rowIndex in 0..<2 {
                    let row = rowIndex == 0 ? top : bottom
                    for offset in 0..<2 {
                        let x = pairColumn * 2 + offset
                        // XRGB8888 is little-endian B, G, R, X in memory.
                        let b = Int(row[x * 4]), g = Int(row[x * 4 + 1]), r = Int(row[x * 4 + 2])
                        luma[(pairRow * 2 + rowIndex) * width + x] =
                            UInt8(((66 * r + 129 * g + 25 * b + 128) >> 8) + 16)
                        sumR += r; sumG += g; sumB += b
                    }
                }
                let r = (sumR + 2) / 4, g = (sumG + 2) / 4, b = (sumB + 2) / 4
                let index = pairRow * (width / 2) + pairColumn
                blue[index] = UInt8(((-38 * r - 74 * g + 112 * b + 128) >> 8) + 128)
                red[index] = UInt8(((112 * r - 94 * g - 18 * b + 128) >> 8) + 128)
            }
        }
    }

    private func write(_ text: String) throws(SystemError) {
        var copy = text
        let bytes = copy.withUTF8 { Array($0) }
        try writePlane(bytes)
    }

    private func writePlane(_ bytes: [UInt8]) throws(SystemError) {
        var failure: SystemError? = nil
        bytes.withUnsafeBytes { raw in
            do throws(SystemError) { try file.descriptor.writeAll(raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }
}
