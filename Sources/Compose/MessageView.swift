/// A message as the compose pass reads it: printable ASCII bytes (already escaped by the slot)
/// and a style. Borrowed from a `MessageSlot`; valid until that slot's next `take()`.
public struct MessageView {
    public let style: MessageStyle
    public let bytes: UnsafeRawBufferPointer

    public init(style: MessageStyle, bytes: UnsafeRawBufferPointer) {
        self.style = style
        self.bytes = bytes
    }

    /// Nothing to draw: the layer leaves the frame untouched.
    public var isEmpty: Bool { bytes.isEmpty }

    /// The text as a String, for logs and tests (allocates; not for the frame path).
    public var text: String { String(decoding: bytes, as: UTF8.self) }
}
