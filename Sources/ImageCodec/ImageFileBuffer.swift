import CKernel
import KernelIO

/// Reusable memory for whole image files. Grows to the largest file seen and then stays, so a
/// recording whose frames are all about the same size stops allocating after the first frame.
public final class ImageFileBuffer {
    /// Files above this are refused before reading: no valid image within the pixel limit needs it.
    public static let maximumFileBytes = 512 * 1024 * 1024

    private var storage: UnsafeMutableRawPointer?
    private var capacity = 0

    public init() {}

    deinit { if let storage { bk_free(storage) } }

    /// Reads all of `path`; the returned bytes stay valid until the next `read` on this buffer.
    public func read(_ path: String) throws(ImageError) -> UnsafeRawBufferPointer {
        let size = bk_file_size(path)
        if size == -2 { throw .unreadable(path: path, reason: "not a regular file") }
        if size < 0 { throw .unreadable(path: path, reason: Errno.current.description) }
        if size > Int64(Self.maximumFileBytes) {
            throw .unreadable(path: path, reason: "file of \(size) bytes is larger than any supported image")
        }
        let wanted = Int(size)
        try reserve(wanted, for: path)
        let file: FileDescriptor
        do {
            file = try FileDescriptor.openForReading(path)
        } catch {
            throw .unreadable(path: path, reason: error.errno.description)
        }
        var filled = 0
        while filled < wanted {
            let got: Int
            do {
                got = try file.read(into: UnsafeMutableRawBufferPointer(start: storage! + filled, count: wanted - filled))
            } catch {
                throw .unreadable(path: path, reason: error.errno.description)
            }
            if got == 0 { break }
            filled += got
        }
        return UnsafeRawBufferPointer(start: storage!, count: filled)
    }

    private func reserve(_ bytes: Int, for path: String) throws(ImageError) {
        if bytes <= capacity, storage != nil { return }
        if let storage { bk_free(storage) }
        let rounded = max(4096, (bytes + 4095) / 4096 * 4096)
        guard let memory = bk_aligned_alloc(64, rounded) else {
            storage = nil
            capacity = 0
            throw .unreadable(path: path, reason: "out of memory for \(bytes) bytes")
        }
        storage = memory
        capacity = rounded
    }
}
