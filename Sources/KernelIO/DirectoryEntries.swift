/// One folder's entry names as read from the kernel. Names are bytes to the kernel; only those that
/// are valid UTF-8 come back as `names` (so every one of them can be passed back to open exactly).
/// The others are kept apart in a repaired, printable-only form for messages: they can be named to
/// a person but never opened by that name.
public struct DirectoryEntries {
    public private(set) var names: [String] = []
    /// Names that are not valid UTF-8, with each bad byte shown as U+FFFD. Never to be opened.
    public private(set) var undecodable: [String] = []
    /// Every entry of the folder, including those past the listing's capacity:
    /// `names.count + undecodable.count < total` means the listing was cut short.
    public let total: Int

    init(total: Int) { self.total = total }

    mutating func add(_ bytes: ArraySlice<UInt8>) {
        let text = String(decoding: bytes, as: UTF8.self)
        // Decoding repairs bad sequences with U+FFFD, so a round trip that changes the bytes means
        // the name was not UTF-8.
        if text.utf8.elementsEqual(bytes) { names.append(text) } else { undecodable.append(text) }
    }

    public var isCutShort: Bool { names.count + undecodable.count < total }
}
