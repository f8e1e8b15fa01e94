/// What became of one photo, as the writer reports it to the loop.
public enum PhotoResult: Equatable, Sendable {
    /// Written and durable under its final name (the JPEG; layers, if kept, beside it).
    case saved(name: String)
    /// Not written under a final name; `reason` is short enough for the screen.
    case failed(reason: String)
}

/// Why a photo writer could not be set up (its folder cannot be made or read).
public struct PhotoError: Error, Equatable {
    public let message: String

    public init(_ message: String) { self.message = message }
}
