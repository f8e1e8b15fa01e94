import Backgrounds

/// The bounds on what a stick may bring, documented in the README ("The USB stick"). At a bound the
/// import names the limit and goes on with what fits: files past the count are skipped, a file
/// over the byte limit is skipped without being read, and once the total would pass its limit the
/// remaining backdrops are skipped.
public struct ImportLimits: Sendable {
    /// Backdrops taken: the number the box keeps ready (each 1080p backdrop holds 8 MiB decoded).
    public var backdrops: Int = BackgroundLibrary.maximumImages
    /// Entries looked at in `backdrop/backgrounds/` (also non-images): beyond this the folder is
    /// cut short and the rest is named as skipped in one line.
    public var entries: Int = 1000
    /// Bytes of one backdrop file; a larger file is never read (its size comes from fstat).
    public var fileBytes: Int = 32 << 20
    /// Bytes of all backdrops together.
    public var totalBytes: Int = 512 << 20
    /// Bytes of `backdrop.conf` (the documented file is a few KB).
    public var configBytes: Int = 64 << 10
    /// Bytes of a file name (UTF-8); longer names are skipped.
    public var nameBytes: Int = 100
    /// Pixels per side and in all: the decoder's own limits, checked from the header before any
    /// pixel memory is allocated.
    public var pixelsPerSide: Int = 16384
    public var pixels: Int = 8192 * 8192
    /// Photos copied to the stick in one export.
    public var photos: Int = 10000

    public init() {}

    public static let standard = ImportLimits()
}
