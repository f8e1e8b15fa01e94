import Synchronization

/// The text on screen, handed from the I/O thread (which decides what to say) to the compute
/// threads (which draw it into every frame). A triple buffer: three fixed-size text buffers,
/// allocated once; at any moment one belongs to the writer, one to the reader, and one waits in
/// the middle. Publishing swaps the writer's freshly filled buffer into the middle; taking
/// swaps the reader's buffer with the middle when the middle is newer. The swaps are one atomic
/// exchange each (acquire-release), so a buffer is only ever touched by the side that holds it
/// and neither side waits for the other. A reader that takes twice between two publishes gets
/// the same text; a writer that publishes twice between two takes replaces the first text
/// (the reader sees only the newest, which is what a screen should show).
///
/// Contract:
/// - `publish` and `clear`: one writer thread (the I/O thread). Never blocks, never allocates.
///   Text is escaped (see `MessageEscaping`) and cut to `capacity` bytes.
/// - `take`: one reader thread at a time (the thread that starts a frame, at the frame
///   boundary). Never blocks, never allocates. The view it returns stays valid and unchanged
///   until the next `take`; any number of threads (the compose bands of that frame) may read it
///   meanwhile, provided the next `take` happens after they finish (the frame boundary).
/// - `generation`: how many texts were published; any thread, for noticing a change.
public final class MessageSlot: @unchecked Sendable {
    /// Bytes of escaped text a message can hold: a caption fills a 1080p line at this length.
    public static let capacity = 80
    /// Style byte, length byte, then the text.
    private static let stride = capacity + 2
    private static let fresh: UInt8 = 0x80

    private let storage: UnsafeMutableRawPointer
    /// The middle buffer's index, with `fresh` set when it holds a text the reader has not taken.
    private let middle = Atomic<UInt8>(2)
    private let published = Atomic<UInt64>(0)
    /// Only the writer touches `back`, only the reader `front`.
    private var back = 0
    private var front = 1

    public init() {
        storage = .allocate(byteCount: 3 * Self.stride, alignment: 8)
        storage.initializeMemory(as: UInt8.self, repeating: 0, count: 3 * Self.stride)
    }

    deinit { storage.deallocate() }

    /// Puts `text` on screen from the next frame that takes it.
    public func publish(_ text: String, style: MessageStyle = .caption) {
        var text = text
        text.withUTF8 { publish(bytes: $0, style: style) }
    }

    /// As `publish(_:style:)`, for bytes that need not be UTF-8 (a file name from a stick).
    public func publish(bytes: UnsafeBufferPointer<UInt8>, style: MessageStyle = .caption) {
        let buffer = storage + back * Self.stride
        let count = MessageEscaping.escape(bytes, into: buffer + 2, capacity: Self.capacity)
        buffer.storeBytes(of: style.rawValue, as: UInt8.self)
        buffer.storeBytes(of: UInt8(count), toByteOffset: 1, as: UInt8.self)
        let previous = middle.exchange(UInt8(back) | Self.fresh, ordering: .acquiringAndReleasing)
        back = Int(previous & 3)
        published.wrappingAdd(1, ordering: .relaxed)
    }

    /// Takes the text off screen from the next frame that takes it.
    public func clear() {
        publish(bytes: UnsafeBufferPointer(start: nil, count: 0))
    }

    /// The newest published text (empty before the first). See the contract above.
    public func take() -> MessageView {
        if middle.load(ordering: .relaxed) & Self.fresh != 0 {
            let previous = middle.exchange(UInt8(front), ordering: .acquiringAndReleasing)
            front = Int(previous & 3)
        }
        let buffer = UnsafeRawPointer(storage + front * Self.stride)
        let style = MessageStyle(rawValue: buffer.load(as: UInt8.self)) ?? .caption
        let count = Int(buffer.load(fromByteOffset: 1, as: UInt8.self))
        return MessageView(style: style, bytes: UnsafeRawBufferPointer(start: buffer + 2, count: count))
    }

    public var generation: UInt64 { published.load(ordering: .relaxed) }
}
